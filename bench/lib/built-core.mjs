// `node --import ./bench/lib/built-core.mjs …`: in that process `@wpk/core` resolves to the build
// `BENCH_BUILT=1` makes (packages/core/dist/bench/index.js, bench/lib/core.ts) instead of the
// sources, so a server started through the CLI's sources (`wpk start`) runs core as published.
// Registered after tsx, this hook runs before tsx's for the one specifier it answers.
import { register } from 'node:module';

register('./built-core-resolve.mjs', import.meta.url);
