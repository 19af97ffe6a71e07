#!/usr/bin/env -S node --import=tsx
import { run } from './program.js';

process.exitCode = await run(process.argv);
