export { buildOpenApiDocument, operationIdOf, OPENAPI_DOCUMENT_VERSION, PLATFORM_TAG, SYSTEM_TAG, WEB_TAG, type OpenApiBuildOptions, type OpenApiDocument, type OpenApiOperation, type OpenApiSource } from './document.js';
export { describeSchema, joiToJsonSchema } from './json-schema.js';
export { openApiRoutes } from './routes.js';
export { installResponseValidation, type ResponseMismatch, type ResponseValidation } from './response-validation.js';
