/**
 * The permissions a caller holds inside ONE app (layer 5 never sees another app's slice).
 * `{namespace}.*` grants every key of the app, including keys the app declares later: it is
 * matched by prefix at check time, not expanded once when a role is saved.
 */
export class PermissionSet {
  private constructor(
    /** The app's namespace (`tasks`, `ext.acme.hello`). */
    readonly namespace: string,
    private readonly granted: ReadonlySet<string>,
    /** The universal wildcard of owners and admins (and of full-access keys they own). */
    readonly universal: boolean,
  ) {}

  /** Every key of every app: owners and admins. */
  static universal(namespace: string): PermissionSet {
    return new PermissionSet(namespace, new Set(), true);
  }

  /** The given keys, restricted to the app's namespace (anything else is ignored). */
  static of(namespace: string, keys: Iterable<string>): PermissionSet {
    const prefix = `${namespace}.`;
    const granted = new Set<string>();
    for (const key of keys) if (typeof key === 'string' && key.startsWith(prefix)) granted.add(key);
    return new PermissionSet(namespace, granted, false);
  }

  /** True when the app-wide wildcard `{namespace}.*` is held. */
  get wildcard(): boolean {
    return this.universal || this.granted.has(`${this.namespace}.*`);
  }

  /**
   * The keys both sets hold (a member's rights narrowed to a grant's scopes): universal only when
   * both are; a wildcard of one side leaves the other side's keys.
   */
  static both(one: PermissionSet, other: PermissionSet): PermissionSet {
    if (one.namespace !== other.namespace) throw new Error(`PermissionSet.both: ${one.namespace} and ${other.namespace} are different apps`);
    if (one.universal && other.universal) return one;
    if (one.wildcard) return other.universal ? one : other;
    if (other.wildcard) return one;
    return new PermissionSet(one.namespace, new Set([...one.granted].filter((key) => other.has(key))), false);
  }

  /** True when `key` is held (exactly, by the app wildcard, or universally). */
  has(key: string): boolean {
    if (this.universal) return true;
    if (!key.startsWith(`${this.namespace}.`)) return false;
    return this.granted.has(key) || this.granted.has(`${this.namespace}.*`);
  }

  /** True when at least one key of the app is held (a scoped key's layer-4 rule). */
  holdsAny(): boolean {
    return this.universal || this.granted.size > 0;
  }

  /** The held keys among the app's declared ones (the wildcard expands to all of them). */
  expand(declared: readonly string[]): string[] {
    return declared.filter((key) => this.has(key));
  }

  /** The keys as granted (wildcards unexpanded), for logs and explanations. */
  grantedKeys(): string[] {
    return this.universal ? ['*'] : [...this.granted].sort();
  }
}
