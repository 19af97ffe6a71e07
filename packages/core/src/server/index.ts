export { collection, selfLink, single, type CollectionEnvelope, type SingleEnvelope } from './envelope.js';
export { toErrorAnswer, validationFailure, type ErrorAnswer } from './errors.js';
export { createHapiServer, createServer, installConventions, type ListenerOptions, type ServerOptions } from './create-server.js';
export { routeMeta } from './conventions.js';
export { DEFAULT_PAGE, DEFAULT_PER_PAGE, MAX_PER_PAGE, parsePagination, type Pagination } from './pagination.js';
export type { WpkRouteMeta } from './route-meta.js';
export { API_VERSIONS, downgradeResponse, resolveApiVersion, utcToday, type ApiVersion, type VersionResolution } from './versioning.js';
export { LazyWork, runInRequestTransaction, runLazyRequestWork, runUnitOfWork, type RequestWork, type WorkGate } from './request-transaction.js';
export { isTrustedOrigin, trustedOrigins } from './origins.js';
