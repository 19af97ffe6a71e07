export * from './app-kit.js';
export * from './answers.js';
export * from './queries.js';
export * from './resource.js';
export * from './route-family.js';
export * from './state-machine.js';
export * from './content-lines.js';
export * from './csv.js';
