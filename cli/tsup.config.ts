import fs from 'node:fs';
import { defineConfig } from 'tsup';

// The published CLI runs built JavaScript with plain node: src/bin.ts's hashbang loads tsx for
// the monorepo's sources, so the built bin gets a plain one instead.
export default defineConfig({
  entry: { bin: 'src/bin.ts', program: 'src/program.ts' },
  format: 'esm',
  target: 'node22',
  dts: { entry: { program: 'src/program.ts' } },
  clean: true,
  async onSuccess() {
    const file = 'dist/bin.js';
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/^#!.*\n/, '#!/usr/bin/env node\n'), { mode: 0o755 });
  },
});
