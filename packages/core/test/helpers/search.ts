import Boom from '@hapi/boom';
import type { Request, Server } from '@hapi/hapi';
import type { SearchDocument, SearchableType } from '@wpk/sdk';
import { registerSearchRoutes, SearchIndex, type SearchAccess } from '../../src/search/index.js';
import { createServer } from '../../src/server/index.js';
import type { Workspace } from '../../src/tenancy/index.js';
import { startTestRuntime, type TestRuntime } from './runtime.js';

/** Who a test request acts as: the apps they may open and the keys they hold there. */
export interface TestCaller {
  apps: string[];
  keys: string[] | 'all';
}

/**
 * A stand-in for the access layers and the app registry: callers are named by an
 * `Authorization: Test <name>` header, apps declare their searchable types here.
 */
export class FixtureAccess implements SearchAccess {
  readonly callers = new Map<string, TestCaller>();
  readonly types = new Map<string, SearchableType[]>();

  private caller(request: Request): TestCaller | undefined {
    return this.callers.get(String(request.auth.credentials?.member?.name ?? ''));
  }

  async canOpenApp(request: Request, app: string): Promise<boolean> {
    return this.types.has(app) && (this.caller(request)?.apps.includes(app) ?? false);
  }

  async heldKeys(request: Request, _app: string): Promise<ReadonlySet<string> | 'all'> {
    const keys = this.caller(request)?.keys ?? [];
    return keys === 'all' ? 'all' : new Set(keys);
  }

  searchableTypes(app: string): SearchableType[] {
    return this.types.get(app) ?? [];
  }
}

/** A searchable type declaration with defaults. */
export function searchable(type: string, permissions: string[]): SearchableType {
  return { type, label: type, permissions, names: ['name'], details: ['detail'] };
}

export interface SearchEnv {
  env: TestRuntime;
  server: Server;
  index: SearchIndex;
  access: FixtureAccess;
  acme: Workspace;
  other: Workspace;
  close(): Promise<void>;
}

/**
 * A runtime with workspaces `acme` and `other`, and a second server with the platform's
 * conventions where the search routes run against FixtureAccess on a test auth scheme (the
 * runtime's own /search runs on the real access layers; test/search-apps.test.ts covers it).
 */
export async function startSearchEnv(): Promise<SearchEnv> {
  const env = await startTestRuntime();
  const { runtime } = env;
  const { baseDomain, publicUrl, allowedHosts, requestTimeoutMs } = runtime.config;
  const server = await createServer({ host: '127.0.0.1', port: 0, baseDomain, publicUrl, allowedHosts, requestTimeoutMs, workspaces: runtime.workspaces, logger: runtime.logger });
  server.auth.scheme('search-test', () => ({
    authenticate: (request, h) => {
      const header = String(request.headers.authorization ?? '');
      if (!header.startsWith('Test ')) return h.unauthenticated(Boom.unauthorized('Authentication required'));
      const name = header.slice(5);
      const member = { id: name, workspaceId: request.app.workspace?.id ?? '', accountId: name, platformRole: 'member' as const, email: `${name}@example.test`, name };
      return h.authenticated({ credentials: { member, via: { kind: 'session', sessionId: `test-${name}`, elevatedUntil: null } } });
    },
  }));
  server.auth.strategy('search-test', 'search-test');
  const index = new SearchIndex(runtime.db.sequelize);
  const access = new FixtureAccess();
  registerSearchRoutes(server, { index, access, auth: 'search-test' });
  const acme = await runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' });
  const other = await runtime.workspaces.create({ subdomain: 'other', name: 'Other' });
  return { env, server, index, access, acme, other, close: () => env.close() };
}

/** A document with only the fields a test cares about. */
export function doc(type: string, id: string, names: string[], extra: Partial<SearchDocument> = {}): SearchDocument {
  return { type, id, title: names[0] ?? id, url: `/${type}s/${id}`, names, ...extra };
}
