/**
 * What the Files tests add to `startWorld` of @wpk/testing: the app installed for everyone,
 * members holding every files key by default, uploads and downloads through the signed links, and
 * `takeEvents` without the app's own `core.files.sweep.scheduled` wake-ups.
 */
import { startWorld, type TestCaller, type TestMember, type TestResponse, type World as BaseWorld, type WorldEvent } from '@wpk/testing';
import app from '../../src/index.js';

export type Caller = TestMember;
export type { TestCaller, TestResponse };

export const ALL_KEYS = ['files.files.read', 'files.files.upload', 'files.files.edit', 'files.files.delete', 'files.files.share'];

export interface World extends BaseWorld {
  /** Uploads `body` as a new file (`target.name`, `target.folder_id`) or a new version (`target.file_id`); answers the completion. */
  upload(caller: TestCaller, target: { name?: string; folder_id?: string; file_id?: string }, body: string | Buffer, contentType?: string): Promise<TestResponse>;
  /** Downloads a file's current version through its link. */
  download(caller: TestCaller, fileId: string): Promise<string>;
  /** The `core.files.*` events written since the last call, oldest first (not the app's own `core.files.sweep.scheduled` wake-ups). */
  takeEvents(): WorldEvent[];
}

export async function filesWorld(subdomain: string): Promise<World> {
  const world = await startWorld({ app, subdomain, install: { access_policy: 'everyone' }, memberKeys: ALL_KEYS });
  const { platform } = world;
  const takeEvents = world.takeEvents;
  return Object.assign(world, {
    async upload(caller: TestCaller, target: { name?: string; folder_id?: string; file_id?: string }, body: string | Buffer, contentType?: string) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const started = await caller.post('/uploads', { ...target, size_bytes: bytes.length, ...(contentType ? { content_type: contentType } : {}) });
      if (started.status !== 200) return started;
      const put = await platform.follow(started.body.data.upload_url, { method: 'PUT', body: bytes, headers: contentType ? { 'content-type': contentType } : {} });
      if (put.status !== 200) throw new Error(`PUT upload link: ${put.status} ${JSON.stringify(put.body)}`);
      return caller.post(`/uploads/${started.body.data.id}/completion`);
    },
    async download(caller: TestCaller, fileId: string) {
      const link = await caller.get(`/files/${fileId}/download`);
      if (link.status !== 200) throw new Error(`download link: ${link.status} ${JSON.stringify(link.body)}`);
      const file = await platform.follow(link.body.data.url);
      return file.bytes.toString('utf8');
    },
    takeEvents: () => takeEvents().filter((event) => event.action !== 'core.files.sweep.scheduled'),
  });
}
