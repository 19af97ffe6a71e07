import type { SearchDocument } from '@wpk/sdk';
import type { Workspace } from '../tenancy/index.js';
import type { SearchIndex } from './search-index.js';

/** What re-indexing needs from the apps (apps/AppRegistry satisfies it). */
export interface ReindexApps {
  /** Every loaded app's namespace, in load order. */
  list(): Array<{ namespace: string }>;
  /** The app's searchable types that have a reindex hook. */
  reindexableTypes(namespace: string): string[];
  /** Workspace ids where the app is installed. */
  installedIn(namespace: string): Promise<string[]>;
  /** Runs the hook of one type in one workspace; `write` gets the documents inside its transaction. Null: not installed there. */
  reindexType(namespace: string, workspace: Workspace, type: string, write: (documents: SearchDocument[]) => Promise<void>): Promise<number | null>;
}

/** What re-indexing needs from the workspaces (tenancy/WorkspaceService satisfies it). */
export interface ReindexWorkspaces {
  findById(id: string): Promise<Workspace | null>;
}

/** Which part of the index to rebuild. */
export interface ReindexOptions {
  /** Only this app (`tasks`, `ext.acme.hello`); default every app with a reindex hook. */
  app?: string;
  /** Only this workspace (its id); default every workspace where each app is installed. */
  workspaceId?: string;
  /** Hears each (app, workspace, type) as it starts and as it ends. */
  onProgress?: (step: ReindexProgress) => void;
}

/** One step of a re-index, as it starts (`documents` and `ms` absent) and as it ends. */
export interface ReindexProgress {
  phase: 'started' | 'finished';
  app: string;
  workspace: { id: string; subdomain: string };
  type: string;
  /** Documents written (finished only). */
  documents?: number;
  /** Duration in milliseconds (finished only). */
  ms?: number;
}

/** One rebuilt (app, workspace, type). */
export interface ReindexedType {
  app: string;
  workspace: string;
  subdomain: string;
  type: string;
  documents: number;
}

/**
 * Rebuilds the search index from the apps' `reindex` hooks: for each app with hooks, each
 * workspace where it is installed and each hooked type, one transaction removes the type's
 * documents and writes what the hook returns. Records the apps index through `ctx.search` are
 * thus brought back after the index was emptied, lost or built by an older version.
 */
export async function reindexSearch(deps: { index: SearchIndex; apps: ReindexApps; workspaces: ReindexWorkspaces }, options: ReindexOptions = {}): Promise<ReindexedType[]> {
  const done: ReindexedType[] = [];
  const apps = deps.apps.list().map((app) => app.namespace).filter((namespace) => options.app === undefined || namespace === options.app);
  for (const namespace of apps) {
    const types = deps.apps.reindexableTypes(namespace);
    if (types.length === 0) continue;
    const installed = await deps.apps.installedIn(namespace);
    const workspaceIds = options.workspaceId === undefined ? installed : installed.filter((id) => id === options.workspaceId);
    for (const workspaceId of workspaceIds) {
      const workspace = await deps.workspaces.findById(workspaceId);
      if (!workspace) continue;
      for (const type of types) {
        const step = { app: namespace, workspace: { id: workspace.id, subdomain: workspace.subdomain }, type };
        options.onProgress?.({ phase: 'started', ...step });
        const started = Date.now();
        const documents = await deps.apps.reindexType(namespace, workspace, type, async (documents) => {
          await deps.index.removeAll(workspace.id, namespace, type);
          for (const document of documents) await deps.index.upsert(workspace.id, namespace, document);
        });
        if (documents === null) continue; // uninstalled since the list was read
        options.onProgress?.({ phase: 'finished', ...step, documents, ms: Date.now() - started });
        done.push({ app: namespace, workspace: workspace.id, subdomain: workspace.subdomain, type, documents });
      }
    }
  }
  return done;
}
