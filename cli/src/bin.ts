#!/usr/bin/env -S node --import=tsx
// The Node check comes first, with nothing else loaded: on an older Node the kit's dependencies
// fail at import with errors that do not say why (undici's TypeError on Node 20).
import { nodeRefusal } from './node-version.js';

const refusal = nodeRefusal(process.versions.node);
if (refusal) {
  console.error(refusal);
  process.exitCode = 1;
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
