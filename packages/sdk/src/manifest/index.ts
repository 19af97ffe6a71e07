export * from './types.js';
export * from './naming.js';
export { compileJsonSchema, createAjv, describeSchemaProblem, formatSchemaErrors, joinPath, jsonSchemaProblems, type SchemaProblem } from './json-schema.js';
export { asManifest, formatManifestProblem, routeKey, validateManifest, type ManifestCodeFacts, type ValidateManifestOptions } from './validate.js';
export * from './catalog.js';
