import type { Request } from '@hapi/hapi';
import type { SearchableType } from '@wpk/sdk';

export type { SearchableType };

/**
 * What search needs from the access layers and the app registry, and nothing more. The runtime
 * binds it to core/src/access and core/src/apps; tests bind it to fixtures.
 */
export interface SearchAccess {
  /** Layer 4: the app is installed in the request's workspace and the caller may open it. */
  canOpenApp(request: Request, app: string): Promise<boolean>;
  /** The caller's permission keys in `app` (wildcards expanded), or `'all'` (owners, admins). */
  heldKeys(request: Request, app: string): Promise<ReadonlySet<string> | 'all'>;
  /** The searchable types the app's manifest declares, in manifest order. */
  searchableTypes(app: string): readonly SearchableType[] | Promise<readonly SearchableType[]>;
}

/**
 * The declared types the caller may search: holding any one of a type's permission keys is
 * enough; a type that declares no key is open to everyone who can open the app. A `{app}.*`
 * or `*` key counts as holding every key of the app.
 */
export function permittedTypes(app: string, declared: readonly SearchableType[], held: ReadonlySet<string> | 'all'): SearchableType[] {
  if (held === 'all' || held.has('*') || held.has(`${app}.*`)) return [...declared];
  return declared.filter((type) => type.permissions.length === 0 || type.permissions.some((key) => held.has(key)));
}
