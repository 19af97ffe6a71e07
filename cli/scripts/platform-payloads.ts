// Rewrites the SDK's PlatformPayloads from the platform's event catalog: npx tsx cli/scripts/platform-payloads.ts
import fs from 'node:fs';
import { generatePlatformPayloads, PLATFORM_PAYLOADS_FILE } from '../src/types/generate.js';

fs.writeFileSync(PLATFORM_PAYLOADS_FILE, await generatePlatformPayloads());
console.log('wrote packages/sdk/src/manifest/platform-payloads.ts');
