export * from './text.js';
export * from './dates.js';
export * from './ids.js';
export * from './members.js';
export { type PlatformJoi } from './joi.js';
