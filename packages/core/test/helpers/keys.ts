import { apiHeaders, startTestRuntime, type TestRuntime } from './runtime.js';
import type { RuntimeOptions } from '../../src/index.js';
import { fileURLToPath } from 'node:url';

/** The notes fixture app (permissions notes.notes.read|create|delete|export). */
export const NOTES_DIR = fileURLToPath(new URL('../fixtures/apps/notes', import.meta.url));

/** A runtime with the notes app loaded, real API keys, and cheap password hashing. */
export async function startKeysRuntime(options: RuntimeOptions = {}): Promise<TestRuntime> {
  return startTestRuntime({ configFile: false, apps: [{ dir: NOTES_DIR, firstParty: true }], scryptLogN: 10, ...options } as RuntimeOptions);
}

/** A workspace with its owner and an owner's full-access key. */
export interface KeyedWorkspace {
  id: string;
  subdomain: string;
  ownerId: string;
  ownerKey: string;
  /** API headers carrying `secret` as a Bearer token. */
  as(secret: string, extra?: Record<string, string>): Record<string, string>;
}

export async function keyedWorkspace(env: TestRuntime, subdomain: string): Promise<KeyedWorkspace> {
  const { runtime } = env;
  const created = await runtime.identity.createWorkspaceWithOwner({ subdomain, name: subdomain, ownerEmail: `owner@${subdomain}.test`, ownerPassword: 'owner-password-1' });
  const { secret } = await runtime.apiKeys.issueFullAccessKey(created.workspaceId, created.memberId, 'owner key');
  return {
    id: created.workspaceId,
    subdomain,
    ownerId: created.memberId,
    ownerKey: secret,
    as: (key, extra = {}) => apiHeaders(subdomain, { authorization: `Bearer ${key}`, ...extra }),
  };
}

/** Adds a joined member; returns its id. */
export async function addMember(env: TestRuntime, workspace: KeyedWorkspace, email: string, platformRole: 'admin' | 'member' = 'member'): Promise<string> {
  const { memberId } = await env.runtime.identity.addMember({ workspaceId: workspace.id, email, password: 'member-password-1', platformRole });
  return memberId;
}

export const json = (response: { payload: string }) => JSON.parse(response.payload);
