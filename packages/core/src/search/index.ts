export { permittedTypes, type SearchAccess, type SearchableType } from './access.js';
export { parseFilters, type SearchFilters } from './filters.js';
export { DEFAULT_PRUNE_INTERVAL_MS, scheduleDictionaryPruning } from './maintenance.js';
export { MAX_QUERY_WORDS } from './query-words.js';
export { NO_APP_ACCESS, registerSearchRoutes, searchReaderOf, type SearchRoutesOptions } from './routes.js';
export { SearchIndex, type SearchHit, type SearchPage, type SearchQuery } from './search-index.js';
export { reindexSearch, type ReindexApps, type ReindexedType, type ReindexOptions, type ReindexProgress, type ReindexWorkspaces } from './reindex.js';
