import * as Y from 'yjs';
import { InvalidError } from '../errors.js';

/**
 * Comment threads on a collaborative document (papers, wiki): the parts every app's threads share.
 * A thread's first comment is anchored to a range of the text by two Yjs relative positions
 * (base64 of `Y.encodeRelativePosition`), which follow the text through everyone's edits (the
 * editor resolves them against its document), with the text quoted when it was made; replies join
 * the thread (`thread_id`: its first comment) and take its anchor; resolving and reopening act on
 * the first comment. docs/writing-an-app.md.
 */

/** A range of a document: two Yjs relative positions (base64). */
export interface CommentAnchor {
  from: string;
  to: string;
}

/** The stored shape of a comment every app keeps (its own table names the document). */
export interface CommentRow {
  id: string;
  thread_id: string | null;
  resolved_at: Date | string | null;
}

/** Checks that `value` is a Yjs relative position (base64 of `Y.encodeRelativePosition`), else a 400 naming `field`. */
export function checkCommentAnchorPosition(value: string, field: string): void {
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw new Error('not base64');
    const position = Y.decodeRelativePosition(Buffer.from(value, 'base64'));
    if (!position.type && !position.item && !position.tname) throw new Error('empty');
  } catch {
    throw new InvalidError(`${field}: must be a Yjs relative position (base64 of Y.encodeRelativePosition)`);
  }
}

/** Checks a new thread's anchor (absent: a comment on the whole document). */
export function checkCommentAnchor(anchor: CommentAnchor | undefined, field = 'anchor'): void {
  if (!anchor) return;
  checkCommentAnchorPosition(anchor.from, `${field}.from`);
  checkCommentAnchorPosition(anchor.to, `${field}.to`);
}

/** The comments whose thread is open (`open`) or resolved (`resolved`); all of them without a status. */
export function commentsWithStatus<T extends CommentRow>(rows: T[], status?: 'open' | 'resolved'): T[] {
  if (!status) return rows;
  const roots = new Map(rows.filter((row) => !row.thread_id).map((row) => [row.id, row]));
  return rows.filter((row) => {
    const root = roots.get(row.thread_id ?? row.id);
    return status === 'resolved' ? Boolean(root?.resolved_at) : !root?.resolved_at;
  });
}

/** `<@{member_id}>` in a comment's body mentions that member (Slack's form, as chat writes it). */
const MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;

/** The member ids a comment's body mentions, each once, in order. */
export function commentMentions(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((match) => match[1].toLowerCase()))];
}

/** A comment's body as a notification's preview: mentions as @, at most 200 characters. */
export function commentPreview(body: string): string {
  const text = body.replace(MENTION, '@').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
