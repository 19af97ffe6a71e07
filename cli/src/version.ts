import { createRequire } from 'node:module';

/** This CLI's version (src/ and dist/ both sit one level below package.json). */
export const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
