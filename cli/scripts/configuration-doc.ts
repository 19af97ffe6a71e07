// Rewrites docs/configuration.md from core's configuration reference: npx tsx cli/scripts/configuration-doc.ts
import fs from 'node:fs';
import { configurationMarkdown } from '../src/docs/configuration-doc.js';

fs.writeFileSync(new URL('../../docs/configuration.md', import.meta.url), configurationMarkdown());
console.log('wrote docs/configuration.md');
