// Rewrites docs/platform-events.md from the SDK's event catalog: npx tsx cli/scripts/platform-events-doc.ts
import fs from 'node:fs';
import { platformEventsMarkdown } from '../src/types/platform-events-doc.js';

fs.writeFileSync(new URL('../../docs/platform-events.md', import.meta.url), platformEventsMarkdown());
console.log('wrote docs/platform-events.md');
