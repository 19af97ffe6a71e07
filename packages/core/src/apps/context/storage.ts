import type { AppStorage } from '@wpk/sdk';
import type { StorageService, StorageUnit } from '../../storage/index.js';
import type { WorkspaceRecord } from '../../tenancy/index.js';
import type { LoadedApp } from '../loader.js';
import type { StrictRoles } from '../strict-roles.js';
import { runtimeRoleCalls } from './strict.js';

const STORAGE_METHODS = ['put', 'get', 'head', 'delete', 'signedDownloadUrl', 'signedUploadUrl'] as const;

/**
 * `ctx.storage` of one app in one workspace. Object rows live in the platform schema, which an
 * app's strict-mode role cannot reach: there each call steps back to the runtime's role and
 * returns to the app's (one call at a time).
 */
export function storageHandle(app: LoadedApp, workspace: WorkspaceRecord, storage: StorageService | null, unit: StorageUnit | null, strict: StrictRoles | null): AppStorage {
  if (!storage || !unit) {
    const missing = () => Promise.reject(new Error('No file storage in this runtime'));
    return Object.freeze(Object.fromEntries(STORAGE_METHODS.map((name) => [name, missing])) as unknown as AppStorage);
  }
  const inner = storage.scope({ workspaceId: workspace.id, subdomain: workspace.subdomain, namespace: app.namespace }, unit);
  if (!strict) return inner;
  const asRuntime = runtimeRoleCalls(strict, app);
  return Object.freeze(Object.fromEntries(STORAGE_METHODS.map((name) => [name, (...args: unknown[]) => asRuntime(() => (inner[name] as (...a: unknown[]) => Promise<unknown>).apply(inner, args))])) as unknown as AppStorage);
}

/**
 * A `ctx.storage` whose handle is made when the handler first calls it (most requests touch no
 * file). A plain object, not a getter on the context: an accessor made per request gives every
 * context a hidden class of its own, which V8's young-generation collections keep alive together
 * with everything the getter's closure holds, so every request was promoted to the old generation
 * (docs/decisions/0025-hot-path.md).
 */
export class DeferredStorage implements AppStorage {
  #make: () => AppStorage;
  #handle: AppStorage | null = null;

  constructor(make: () => AppStorage) {
    this.#make = make;
  }

  #storage(): AppStorage {
    return (this.#handle ??= this.#make());
  }

  put(...args: Parameters<AppStorage['put']>) {
    return this.#storage().put(...args);
  }

  get(...args: Parameters<AppStorage['get']>) {
    return this.#storage().get(...args);
  }

  head(...args: Parameters<AppStorage['head']>) {
    return this.#storage().head(...args);
  }

  delete(...args: Parameters<AppStorage['delete']>) {
    return this.#storage().delete(...args);
  }

  signedDownloadUrl(...args: Parameters<AppStorage['signedDownloadUrl']>) {
    return this.#storage().signedDownloadUrl(...args);
  }

  signedUploadUrl(...args: Parameters<AppStorage['signedUploadUrl']>) {
    return this.#storage().signedUploadUrl(...args);
  }
}
