export * from './errors.js';
export * from './mrn.js';
