import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Runtime } from '@wpk/core';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const exec = promisify(execFile);

async function wpk(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [TS_HOOKS, bin, ...args], { env: { ...process.env, DATABASE_URL: '', WPK_LOG_LEVEL: 'silent' }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

test('workspace create --owner-email/--owner-password and member add create joined members who can sign in', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-cli-identity-'));
  const created = await wpk(['workspace', 'create', '--subdomain', 'acme', '--name', 'Acme', '--owner-email', 'Olga@Acme.test', '--owner-password', 'olga-owner-password', '--json', '--data-dir', dataDir]);
  t.is(created.code, 0, created.stderr);
  const body = JSON.parse(created.stdout);
  t.like(body, { workspace: { subdomain: 'acme', name: 'Acme' }, owner: { email: 'olga@acme.test' } });
  t.regex(body.owner.member_id, /^[0-9a-f-]{36}$/);
  t.regex(body.api_key, /^slk_[0-9A-Za-z]{32}$/);

  const alone = await wpk(['workspace', 'create', '--subdomain', 'other', '--name', 'Other', '--owner-email', 'x@acme.test', '--data-dir', dataDir]);
  t.is(alone.code, 1);
  t.is(alone.stderr.trim(), 'wpk: --owner-email and --owner-password are required: a workspace is created with its owner, who signs in with them');

  const added = await wpk(['member', 'add', '--subdomain', 'acme', '--email', 'abe@acme.test', '--password', 'abe-admin-password', '--platform-role', 'admin', '--json', '--data-dir', dataDir]);
  t.is(added.code, 0, added.stderr);
  const adminAdded = JSON.parse(added.stdout);
  t.like(adminAdded.member, { email: 'abe@acme.test', platform_role: 'admin', state: 'joined', workspace_id: body.workspace.id });
  t.regex(adminAdded.api_key, /^slk_[0-9A-Za-z]{32}$/);
  const text = await wpk(['member', 'add', '--subdomain', 'acme', '--email', 'meg@acme.test', '--password', 'meg-member-password', '--platform-role', 'member', '--data-dir', dataDir]);
  const lines = text.stdout.trim().split('\n');
  t.regex(lines[0], /^added meg@acme\.test to acme as member \(member [0-9a-f-]{36}\)$/);
  t.regex(lines[1], /^full-access API key for meg@acme\.test \(shown once\): slk_[0-9A-Za-z]{32}$/);

  const twice = await wpk(['member', 'add', '--subdomain', 'acme', '--email', 'abe@acme.test', '--password', 'abe-admin-password', '--platform-role', 'admin', '--data-dir', dataDir]);
  t.deepEqual([twice.code, twice.stderr.trim()], [1, 'wpk: abe@acme.test is already a member of acme']);
  const nowhere = await wpk(['member', 'add', '--subdomain', 'nope', '--email', 'a@b.test', '--password', 'long-enough', '--platform-role', 'member', '--data-dir', dataDir]);
  t.deepEqual([nowhere.code, nowhere.stderr.trim()], [1, 'wpk: No workspace at nope.localhost']);
  const owner = await wpk(['member', 'add', '--subdomain', 'acme', '--email', 'a@b.test', '--password', 'long-enough', '--platform-role', 'owner', '--data-dir', dataDir]);
  t.is(owner.code, 1);
  t.regex(owner.stderr, /--platform-role.*owner.*invalid|Allowed choices are admin, member/i);
  const short = await wpk(['member', 'add', '--subdomain', 'acme', '--email', 'a@b.test', '--password', 'short', '--platform-role', 'member', '--data-dir', dataDir]);
  t.deepEqual([short.code, short.stderr.trim()], [1, 'wpk: password length must be at least 8 characters long']);

  const runtime = await Runtime.create({ logLevel: 'silent', dataDir, databaseUrl: null, port: 0 });
  try {
    for (const [email, password, role] of [['olga@acme.test', 'olga-owner-password', 'owner'], ['abe@acme.test', 'abe-admin-password', 'admin'], ['meg@acme.test', 'meg-member-password', 'member']]) {
      const answer = await runtime.server.inject({ method: 'POST', url: '/sessions', headers: { host: 'acme.localhost', 'x-api-version': '2026-11-01', 'content-type': 'application/json' }, payload: { email, password } });
      t.is(answer.statusCode, 200, answer.payload);
      t.is(JSON.parse(answer.payload).data.platform_role, role);
    }
    // The printed keys act as their members.
    for (const [key, email] of [[body.api_key, 'olga@acme.test'], [adminAdded.api_key, 'abe@acme.test']]) {
      const me = await runtime.server.inject({ method: 'GET', url: '/me', headers: { host: 'acme.localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${key}` } });
      t.is(me.statusCode, 200, me.payload);
      t.regex(me.payload, new RegExp(email.replace('.', '\\.')));
    }
  } finally {
    await runtime.stop();
  }
});

test('wpk --help lists member; member add --help shows its options', async (t) => {
  const help = await wpk(['member', 'add', '--help']);
  t.is(help.code, 0);
  for (const option of ['--subdomain', '--email', '--password', '--platform-role', '--name', '--json', '--data-dir']) t.true(help.stdout.includes(option), option);
});

test('operator add prints a credential once that opens /v/admin, stored as a hash', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-cli-operator-'));
  const bad = await wpk(['operator', 'add', '--email', 'not-an-email', '--data-dir', dataDir]);
  t.deepEqual([bad.code, bad.stderr.trim()], [1, 'wpk: email must be an e-mail address']);
  const added = await wpk(['operator', 'add', '--email', 'Ops@Example.test', '--name', 'Ops', '--json', '--data-dir', dataDir]);
  t.is(added.code, 0, added.stderr);
  const body = JSON.parse(added.stdout);
  t.like(body.operator, { email: 'ops@example.test', name: 'Ops' });
  t.regex(body.credential, /^wpo_[0-9A-Za-z]{32}$/);
  t.is(body.operator.prefix, body.credential.slice(0, 12));

  const runtime = await Runtime.create({ logLevel: 'silent', dataDir, databaseUrl: null, port: 0 });
  try {
    const answer = await runtime.server.inject({ method: 'GET', url: '/v/admin/coupons', headers: { host: 'localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${body.credential}` } });
    t.is(answer.statusCode, 200, answer.payload);
    const stored = JSON.stringify(await runtime.db.sequelize.query('SELECT * FROM platform.operators'));
    t.false(stored.includes(body.credential));
  } finally {
    await runtime.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});
