/**
 * The Files app's test fixture: a real platform with the app loaded as first-party, one
 * workspace where it is installed, and short ways to get callers and to upload.
 */
import { createTestPlatform, type TestCaller, type TestMember, type TestPlatform, type TestResponse, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export type Caller = TestMember;

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export const ALL_KEYS = ['files.files.read', 'files.files.upload', 'files.files.edit', 'files.files.delete', 'files.files.share'];

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  workspaceId: string;
  owner: Caller;
  /** A member allowed into the app holding these keys (default: every key of the app). */
  member(keys?: string[], options?: { platformRole?: 'admin' | 'member' }): Promise<Caller>;
  /** Uploads `body` as a new file (`target.name`, `target.folder_id`) or a new version (`target.file_id`); answers the completion. */
  upload(caller: TestCaller, target: { name?: string; folder_id?: string; file_id?: string }, body: string | Buffer, contentType?: string): Promise<TestResponse>;
  /** Downloads a file's current version through its link. */
  download(caller: TestCaller, fileId: string): Promise<string>;
  /** The `core.files.*` events written since the last call, oldest first (not the app's own `core.files.sweep.scheduled` wake-ups). */
  takeEvents(): CapturedEvent[];
  deliver(action: string, payload: Record<string, unknown>): Promise<void>;
  query<T extends object = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown>): Promise<T[]>;
  close(): Promise<void>;
}

export type { TestCaller, TestResponse };

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app], firstParty: true });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('files', { access_policy: 'everyone' });
    platform.takeEvents();
    const world: World = {
      platform,
      workspace,
      workspaceId: workspace.id,
      owner: workspace.owner,
      async member(keys = ALL_KEYS, options = {}) {
        const member = await workspace.member({ permissions: keys, ...options });
        // As the broker would: the app's copy of the members learns of the newcomer.
        await world.deliver('system.workspace.member.added', { member_id: member.id, role: member.platformRole });
        return member;
      },
      async upload(caller, target, body, contentType) {
        const bytes = typeof body === 'string' ? Buffer.from(body) : body;
        const started = await caller.post('/uploads', { ...target, size_bytes: bytes.length, ...(contentType ? { content_type: contentType } : {}) });
        if (started.status !== 200) return started;
        const put = await platform.follow(started.body.data.upload_url, { method: 'PUT', body: bytes, headers: contentType ? { 'content-type': contentType } : {} });
        if (put.status !== 200) throw new Error(`PUT upload link: ${put.status} ${JSON.stringify(put.body)}`);
        return caller.post(`/uploads/${started.body.data.id}/completion`);
      },
      async download(caller, fileId) {
        const link = await caller.get(`/files/${fileId}/download`);
        if (link.status !== 200) throw new Error(`download link: ${link.status} ${JSON.stringify(link.body)}`);
        const file = await platform.follow(link.body.data.url);
        return file.bytes.toString('utf8');
      },
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.files.') && event.action !== 'core.files.sweep.scheduled')
          .map((event) => ({ action: event.action, payload: event.payload })),
      async deliver(action, payload) {
        const result = await platform.deliver(workspace.id, action, payload);
        if (result.files !== 'handled') throw new Error(`${action} was not handled by files: ${JSON.stringify(result)}`);
      },
      query: (sql, replacements) => platform.query(sql, replacements),
      close: () => platform.close(),
    };
    return world;
  } catch (error) {
    await platform.close();
    throw error;
  }
}
