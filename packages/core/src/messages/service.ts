import { NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';

/** A thread as `GET /messages` lists it. */
export interface ThreadView {
  /** A UUID for a workspace's own thread; `release-{version}` for the release notes of a version. */
  id: string;
  topic: 'billing' | 'release';
  subject: string;
  message_count: number;
  last_message_at: string;
}

/** One message of a thread. */
export interface MessageView {
  id: string;
  body: string;
  /** `title` of a release note; null for the others. */
  title: string | null;
  /** Where the message points in the workspace (an invoice), or null. */
  link: string | null;
  created_at: string;
}

/** A release note as operators see it. */
export interface ReleaseNoteView {
  id: string;
  version: string;
  title: string;
  body: string;
  published_at: string;
}

const RELEASE_PREFIX = 'release-';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBJECTS: Record<'billing', string> = { billing: 'Billing' };

/**
 * The platform's own messages to a workspace's admins (docs/billing.md, "Messages"). A workspace
 * has one thread per topic (`billing`: every invoice issued and every card added posts there), and
 * one thread per platform version that has release notes: those are the same for every
 * workspace, read from the release notes operators publish (nothing is copied per workspace).
 */
export class MessagesService {
  constructor(private readonly sequelize: Sequelize) {}

  /** Posts a message to the workspace's thread of `topic` (made on first use). Runs in the caller's transaction. */
  async post(workspaceId: string, topic: 'billing', body: string, at: Date, link: string | null = null): Promise<void> {
    const [thread] = await this.sequelize.query<{ id: string }>(
      `INSERT INTO platform.message_threads (workspace_id, topic, subject, created_at, last_message_at) VALUES (:workspaceId, :topic, :subject, :at, :at)
       ON CONFLICT (workspace_id, topic) DO UPDATE SET last_message_at = GREATEST(platform.message_threads.last_message_at, EXCLUDED.last_message_at)
       RETURNING id`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, topic, subject: SUBJECTS[topic], at } },
    );
    await this.sequelize.query('INSERT INTO platform.messages (workspace_id, thread_id, body, link, created_at) VALUES (:workspaceId, :threadId, :body, :link, :at)', {
      replacements: { workspaceId, threadId: thread.id, body: body.slice(0, 2000), link, at },
    });
  }

  /** The workspace's threads, the most recent first (ties: subject). */
  async threads(workspaceId: string, page: { offset: number; limit: number }): Promise<{ rows: ThreadView[]; total: number }> {
    const own = await this.sequelize.query<{ id: string; topic: 'billing'; subject: string; message_count: number; last_message_at: Date }>(
      `SELECT t.id, t.topic, t.subject, t.last_message_at, (SELECT count(*)::int FROM platform.messages m WHERE m.workspace_id = t.workspace_id AND m.thread_id = t.id) AS message_count
         FROM platform.message_threads t WHERE t.workspace_id = :workspaceId`,
      { type: QueryTypes.SELECT, replacements: { workspaceId } },
    );
    const releases = await this.sequelize.query<{ version: string; message_count: number; last_message_at: Date }>(
      'SELECT version, count(*)::int AS message_count, max(published_at) AS last_message_at FROM platform.release_notes GROUP BY version',
      { type: QueryTypes.SELECT },
    );
    const all: ThreadView[] = [
      ...own.map((row) => ({ id: row.id, topic: row.topic, subject: row.subject, message_count: row.message_count, last_message_at: new Date(row.last_message_at).toISOString() })),
      ...releases.map((row) => ({ id: `${RELEASE_PREFIX}${row.version}`, topic: 'release' as const, subject: `Release notes for ${row.version}`, message_count: row.message_count, last_message_at: new Date(row.last_message_at).toISOString() })),
    ].sort((a, b) => b.last_message_at.localeCompare(a.last_message_at) || a.subject.localeCompare(b.subject));
    return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }

  /** One thread with its messages, oldest first. 404 for a thread the workspace does not have. */
  async thread(workspaceId: string, threadId: string): Promise<ThreadView & { messages: MessageView[] }> {
    if (threadId.startsWith(RELEASE_PREFIX)) {
      const version = threadId.slice(RELEASE_PREFIX.length);
      const notes = await this.releaseNotes(version);
      if (notes.length === 0) throw new NotFoundError(`No message thread ${threadId}`);
      return {
        id: threadId,
        topic: 'release',
        subject: `Release notes for ${version}`,
        message_count: notes.length,
        last_message_at: notes[notes.length - 1].published_at,
        messages: notes.map((note) => ({ id: note.id, title: note.title, body: note.body, link: null, created_at: note.published_at })),
      };
    }
    if (!UUID.test(threadId)) throw new NotFoundError(`No message thread ${threadId}`);
    const [thread] = await this.sequelize.query<{ id: string; topic: 'billing'; subject: string; last_message_at: Date }>(
      'SELECT id, topic, subject, last_message_at FROM platform.message_threads WHERE workspace_id = :workspaceId AND id = :threadId',
      { type: QueryTypes.SELECT, replacements: { workspaceId, threadId } },
    );
    if (!thread) throw new NotFoundError(`No message thread ${threadId}`);
    const messages = await this.sequelize.query<{ id: string; body: string; link: string | null; created_at: Date }>(
      'SELECT id, body, link, created_at FROM platform.messages WHERE workspace_id = :workspaceId AND thread_id = :threadId ORDER BY created_at, seq',
      { type: QueryTypes.SELECT, replacements: { workspaceId, threadId } },
    );
    return {
      id: thread.id,
      topic: thread.topic,
      subject: thread.subject,
      message_count: messages.length,
      last_message_at: new Date(thread.last_message_at).toISOString(),
      messages: messages.map((message) => ({ id: message.id, title: null, body: message.body, link: message.link, created_at: new Date(message.created_at).toISOString() })),
    };
  }

  /** Publishes a release note for `version`: it appears at once in every workspace's messages. */
  async addReleaseNote(version: string, title: string, body: string, at: Date): Promise<ReleaseNoteView> {
    const [row] = await this.sequelize.query<{ id: string; version: string; title: string; body: string; published_at: Date }>(
      'INSERT INTO platform.release_notes (version, title, body, published_at) VALUES (:version, :title, :body, :at) RETURNING id, version, title, body, published_at',
      { type: QueryTypes.SELECT, replacements: { version, title, body, at } },
    );
    return presentNote(row);
  }

  /** The notes of a version, oldest first. */
  async releaseNotes(version: string): Promise<ReleaseNoteView[]> {
    const rows = await this.sequelize.query<{ id: string; version: string; title: string; body: string; published_at: Date }>(
      'SELECT id, version, title, body, published_at FROM platform.release_notes WHERE version = :version ORDER BY published_at, id',
      { type: QueryTypes.SELECT, replacements: { version } },
    );
    return rows.map(presentNote);
  }

  /** Deletes a note of a version (404 when the version has no such note): it leaves every workspace's messages. */
  async deleteReleaseNote(version: string, noteId: string): Promise<void> {
    if (!UUID.test(noteId)) throw new NotFoundError(`Version ${version} has no release note ${noteId}`);
    const [, meta] = (await this.sequelize.query('DELETE FROM platform.release_notes WHERE version = :version AND id = :noteId', { replacements: { version, noteId } })) as [unknown, { rowCount?: number }];
    if (!meta?.rowCount) throw new NotFoundError(`Version ${version} has no release note ${noteId}`);
  }
}

function presentNote(row: { id: string; version: string; title: string; body: string; published_at: Date }): ReleaseNoteView {
  return { id: row.id, version: row.version, title: row.title, body: row.body, published_at: new Date(row.published_at).toISOString() };
}
