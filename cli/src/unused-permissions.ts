import fs from 'node:fs';
import path from 'node:path';
import type { LoadedApp } from '@wpk/core';

/** A declared permission nothing grants access with: no route's chain, searchable type, live channel or line of code names it. */
export interface UnusedPermission {
  file: string;
  /** Where in app.json: `permissions[3].key`. */
  field: string;
  key: string;
}

/** Every string a chain step holds: a key, or the keys of an `any_of` group. */
function chainKeys(step: unknown): string[] {
  if (typeof step === 'string') return [step];
  const group = (step as { any_of?: unknown[] } | null)?.any_of;
  return Array.isArray(group) ? group.flatMap(chainKeys) : [];
}

/** The text of the app's own code (not its tests, dependencies or type declarations), where a named check may hold a key. */
function codeText(dir: string | null): string {
  if (!dir) return '';
  const parts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!['node_modules', 'test', 'public', 'ui'].includes(entry.name) && !entry.name.startsWith('.')) walk(path.join(folder, entry.name));
      } else if (/\.(ts|js|mjs|cjs)$/.test(entry.name) && !/\.(test|d)\.[cm]?[jt]s$/.test(entry.name)) {
        parts.push(fs.readFileSync(path.join(folder, entry.name), 'utf8'));
      }
    }
  };
  walk(dir);
  return parts.join('\n');
}

/**
 * The permissions `app` declares that nothing uses: a key is used when a route's chain (or one of
 * its `any_of` groups) or a searchable type names it, a live channel of the code requires it, or
 * the app's code holds it as a quoted string (a named check's `ctx.permissions.has('...')`). A
 * wildcard step (`tasks.*`) uses every key it covers.
 */
export function unusedPermissions(app: LoadedApp): UnusedPermission[] {
  const manifest = app.manifest;
  const used = new Set<string>([
    ...manifest.authorization.flatMap((entry) => (entry.chain ?? []).flatMap(chainKeys)),
    ...(manifest.search ?? []).flatMap((type) => type.permissions),
    ...Object.values(app.definition?.live ?? {}).map((kind) => kind.permission),
  ]);
  const wildcards = [...used].filter((key) => key.endsWith('.*')).map((key) => key.slice(0, -1));
  let code: string | null = null;
  const unused: UnusedPermission[] = [];
  manifest.permissions.forEach((permission, index) => {
    if (used.has(permission.key) || wildcards.some((prefix) => permission.key.startsWith(prefix))) return;
    code ??= codeText(app.dir);
    if (code.includes(`'${permission.key}'`) || code.includes(`"${permission.key}"`) || code.includes(`\`${permission.key}\``)) return;
    unused.push({ file: app.file, field: `permissions[${index}].key`, key: permission.key });
  });
  return unused;
}
