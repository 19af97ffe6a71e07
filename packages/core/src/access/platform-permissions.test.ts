import test from 'ava';
import { permissionKeyProblem, RESERVED_SLUGS } from '@wpk/sdk/tooling';
import { PermissionSet } from './permission-set.js';
import { PLATFORM_NAMESPACE, PLATFORM_PERMISSIONS } from './platform-permissions.js';

test('platform keys follow the specification key rules under the reserved slug', (t) => {
  t.true(RESERVED_SLUGS.has(PLATFORM_NAMESPACE));
  for (const { key } of PLATFORM_PERMISSIONS) t.is(permissionKeyProblem(key, PLATFORM_NAMESPACE), null, key);
  t.is(new Set(PLATFORM_PERMISSIONS.map((permission) => permission.key)).size, PLATFORM_PERMISSIONS.length);
});

test('account.* holds every platform key and nothing of an app', (t) => {
  const set = PermissionSet.of(PLATFORM_NAMESPACE, ['account.*', 'notes.notes.read']);
  for (const { key } of PLATFORM_PERMISSIONS) t.true(set.has(key), key);
  t.false(set.has('notes.notes.read'));
  t.false(PermissionSet.of(PLATFORM_NAMESPACE, ['accountx.members.read', 'notes.*']).has('account.members.read'));
});
