import test from 'ava';
import fs from 'node:fs';
import schema from '../schema/app.schema.json' with { type: 'json' };

// docs/manifest.md is the reference of app.json: it must name every field the schema has.

type Node = { properties?: Record<string, Node>; items?: Node; $ref?: string; anyOf?: Node[] };
const definitions = (schema as { definitions: Record<string, Node> }).definitions;

/** Every field path of the schema: `slug`, `tile.name`, `permissions[].key`, `authorization[].chain[].any_of`, ... */
function fieldPaths(node: Node, prefix: string, seen = new Set<string>()): string[] {
  if (node.$ref) {
    const name = node.$ref.replace('#/definitions/', '');
    if (seen.has(`${prefix}:${name}`)) return [];
    return fieldPaths(definitions[name], prefix, new Set([...seen, `${prefix}:${name}`]));
  }
  const paths: string[] = [];
  for (const alternative of node.anyOf ?? []) paths.push(...fieldPaths(alternative, prefix, seen));
  if (node.items) paths.push(...fieldPaths(node.items, `${prefix}[]`, seen));
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    paths.push(path, ...fieldPaths(child, path, seen));
  }
  return [...new Set(paths)];
}

const docs = fs.readFileSync(new URL('../../../docs/manifest.md', import.meta.url), 'utf8');

test('docs/manifest.md lists every field of the manifest schema', (t) => {
  const paths = fieldPaths(schema as Node, '');
  t.true(paths.length > 40, `only ${paths.length} fields found`);
  const missing = paths.filter((path) => !docs.includes(`\`${path}\``));
  t.deepEqual(missing, [], `docs/manifest.md does not mention: ${missing.join(', ')}`);
});

test('docs/manifest.md names no field the schema does not have', (t) => {
  const paths = new Set(fieldPaths(schema as Node, ''));
  const table = [...docs.matchAll(/^\| `([a-z_$][\w.[\]$]*)` \|/gim)].map((match) => match[1]);
  t.true(table.length > 40);
  t.deepEqual(table.filter((path) => !paths.has(path)), []);
});
