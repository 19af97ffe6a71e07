/**
 * `@wpk/sdk`: what an app's code uses. The manifest validator and the naming rules behind it
 * live under `@wpk/sdk/tooling` (the runtime, the CLI and the test harness read them).
 */
export * from './errors.js';
export * from './mrn.js';
export * from './positions.js';
export * from './input/index.js';
export * from './events/index.js';
export type * from './manifest/types.js';
export type { PlatformPayloads } from './manifest/platform-payloads.js';
export * from './app/index.js';
export * from './kit/index.js';
export * from './reexports.js';
