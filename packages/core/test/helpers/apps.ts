import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { QueryTypes } from 'sequelize';
import { createLogger, type Runtime, type RuntimeOptions } from '../../src/index.js';
import type { StagedEvent } from '../../src/events/sink.js';
import type { SearchOperation } from '../../src/apps/index.js';
import { apiHeaders, startTestRuntime, type TestRuntime } from './runtime.js';

/** The fixture apps: `notes` (loaded as first-party) and `ext.acme.vault`. */
export const NOTES_DIR = fileURLToPath(new URL('../fixtures/apps/notes', import.meta.url));
export const VAULT_DIR = fileURLToPath(new URL('../fixtures/apps/vault', import.meta.url));

/** A runtime with the fixture apps, capturing staged events, search changes and log lines. */
export interface AppsTestRuntime extends TestRuntime {
  events: Array<StagedEvent & { workspaceId: string | null }>;
  search: Array<SearchOperation & { workspaceId: string; app: string }>;
  logs: Array<Record<string, unknown>>;
}

export async function startAppsRuntime(options: RuntimeOptions = {}): Promise<AppsTestRuntime> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const events: AppsTestRuntime['events'] = [];
  const search: AppsTestRuntime['search'] = [];
  const env = await startTestRuntime({
    logger: createLogger('info', sink),
    configFile: false,
    apps: [{ dir: NOTES_DIR, firstParty: true }, { dir: VAULT_DIR }],
    scryptLogN: 10,
    ...options,
    seams: {
      // Events the apps layer stages are recorded, then written to the outbox.
      eventSink: (inner, concern) =>
        concern !== 'apps'
          ? inner
          : {
              async write(workspaceId, staged, last) {
                events.push(...staged.map((event) => ({ ...event, workspaceId })));
                await inner.write(workspaceId, staged, last);
              },
              afterCommit: () => inner.afterCommit(),
            },
      // Index changes are recorded instead of applied (a test that wants them applied passes its own seam).
      searchIndexer: () => ({
        async apply(scope, operations) {
          search.push(...operations.map((operation) => ({ ...operation, ...scope })));
        },
      }),
      ...options.seams,
    },
  } as RuntimeOptions);
  return { ...env, events, search, logs };
}

/** A member the tests act as. */
export interface TestCaller {
  memberId: string;
  accountId: string;
  email: string;
  /** Headers of an API call with this member's session. */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** Creates a real API key for this member (made by the workspace owner); returns headers using it. */
  key(options: { fullAccess: boolean; scopes?: string[] }): Promise<Record<string, string>>;
}

let counter = 0;

/** A workspace with its owner, and helpers to add members and roles. */
export class TestWorkspace {
  private constructor(
    private readonly env: AppsTestRuntime,
    readonly id: string,
    readonly subdomain: string,
    readonly owner: TestCaller,
  ) {}

  static async create(env: AppsTestRuntime, subdomain: string): Promise<TestWorkspace> {
    const created = await env.runtime.identity.createWorkspaceWithOwner({ subdomain, name: `${subdomain} inc`, ownerEmail: `owner@${subdomain}.test`, ownerPassword: 'owner-password-1', ownerName: `Owner of ${subdomain}` });
    const owner = await caller(env, subdomain, created.memberId);
    return new TestWorkspace(env, created.workspaceId, subdomain, owner);
  }

  get runtime(): Runtime {
    return this.env.runtime;
  }

  /** A joined member (or admin) holding the given custom roles. */
  async member(platformRole: 'member' | 'admin' = 'member', roleIds: string[] = [], name?: string): Promise<TestCaller> {
    counter += 1;
    const email = `${name ?? platformRole}${counter}@${this.subdomain}.test`;
    const added = await this.runtime.identity.addMember({ workspaceId: this.id, email, password: 'member-password-1', platformRole, name: name ?? `${platformRole} ${counter}` });
    for (const roleId of roleIds) await this.assign(added.memberId, roleId);
    return caller(this.env, this.subdomain, added.memberId);
  }

  /** A custom role with the given permissions (object keyed by app slug). */
  async role(name: string, permissions: Record<string, string[]> = {}): Promise<string> {
    const [row] = await this.runtime.db.sequelize.query<{ id: string }>('INSERT INTO platform.roles (workspace_id, name, permissions) VALUES (:workspaceId, :name, CAST(:permissions AS jsonb)) RETURNING id', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId: this.id, name, permissions: JSON.stringify(permissions) },
    });
    return row.id;
  }

  /** Gives a member a role. */
  async assign(memberId: string, roleId: string): Promise<void> {
    await this.runtime.db.sequelize.query('INSERT INTO platform.member_roles (workspace_id, member_id, role_id) VALUES (:workspaceId, :memberId, :roleId)', { replacements: { workspaceId: this.id, memberId, roleId } });
  }

  /** Installs an app through the API as the owner; throws unless 200. */
  async install(slug: string, body: Record<string, unknown> = {}): Promise<void> {
    const response = await this.runtime.server.inject({ method: 'POST', url: `/applications/${slug}/installations`, headers: this.owner.headers({ 'content-type': 'application/json' }), payload: body });
    if (response.statusCode !== 200) throw new Error(`install ${slug}: ${response.statusCode} ${response.payload}`);
  }
}

async function caller(env: AppsTestRuntime, subdomain: string, memberId: string): Promise<TestCaller> {
  const { Account, Member } = env.runtime.identity.context.models;
  const member = (await Member.findByPk(memberId))!;
  const account = (await Account.findByPk(member.account_id))!;
  const session = await env.runtime.identity.sessions.start(member, account);
  return {
    memberId,
    accountId: account.id,
    email: account.email,
    // A browser sends Sec-Fetch-Site with its cookie; without it (or Origin) a write is refused as cross-site.
    headers: (extra = {}) => apiHeaders(subdomain, { cookie: `wpk_session=${session.token}`, 'sec-fetch-site': 'same-origin', ...extra }),
    key: async ({ fullAccess, scopes = [] }) => {
      counter += 1;
      const owner = await Member.findOne({ where: { workspace_id: member.workspace_id, platform_role: 'owner' } });
      const actor = (await env.runtime.identity.callerForMember(member.workspace_id, owner!.id))!;
      const { secret } = await env.runtime.apiKeys.create(member.workspace_id, actor, { name: `test key ${counter}`, full_access: fullAccess, scopes: fullAccess ? undefined : scopes, member_id: member.id });
      return apiHeaders(subdomain, { authorization: `Bearer ${secret}` });
    },
  };
}

/** Parses a JSON response. */
export const body = (response: { payload: string }) => JSON.parse(response.payload);

/** Injects a request into the runtime's server; a payload goes as JSON. */
export function injectCall(env: TestRuntime, method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  return env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as object | undefined });
}
