export { resolveConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
export * from './db/index.js';
export { createLogger } from './logger.js';
export { Runtime, type RuntimeOptions } from './runtime.js';
export * from './server/index.js';
export * from './tenancy/index.js';
export { createScratchDatabase, type ScratchDatabase } from './testing.js';
