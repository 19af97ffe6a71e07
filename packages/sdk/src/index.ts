export * from './errors.js';
export * from './mrn.js';
export * from './events/index.js';
export * from './manifest/index.js';
export * from './app/index.js';
export * from './reexports.js';
