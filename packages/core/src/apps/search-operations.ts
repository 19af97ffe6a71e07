import type { SearchDocument } from '@wpk/sdk';

/** One change to the search index, as an app's handler asked for it. */
export type SearchOperation = { op: 'upsert'; document: SearchDocument } | { op: 'remove'; type: string; id: string };

/**
 * The search engine's side of `ctx.search`: applies an app's index changes for one workspace,
 * inside the work's transaction (after the handler succeeded, under the runtime's own role).
 */
export interface SearchIndexer {
  apply(scope: { workspaceId: string; app: string }, operations: SearchOperation[]): Promise<void>;
}
