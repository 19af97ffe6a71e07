import * as Y from 'yjs';
import { column } from '../app/columns.js';
import { memberMrn } from '../mrn.js';
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

/**
 * The columns of a comment every app's comment table has, after its own `id` and the document's id
 * (`defineModel('comments', { id, paper_id, ...commentColumns() })`).
 */
export const commentColumns = () => ({
  /** The thread's first comment (null: this one starts a thread). */
  thread_id: column.uuid().nullable(),
  body: column.text(),
  /** Yjs relative positions (base64) of the range's start and end, and the text quoted when it was made. */
  anchor_from: column.text().nullable(),
  anchor_to: column.text().nullable(),
  quote: column.string(1000).default(''),
  author_id: column.uuid(),
  edited_at: column.date().nullable(),
  resolved_at: column.date().nullable(),
  resolved_by: column.uuid().nullable(),
});

/** A stored comment as `commentColumns` declares it. */
export interface StoredComment extends CommentRow {
  body: string;
  anchor_from: string | null;
  anchor_to: string | null;
  quote: string;
  author_id: string;
  edited_at: Date | null;
  resolved_at: Date | null;
  resolved_by: string | null;
  created_at: Date;
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** A comment as the API answers it, after the app's own `id` and document id: the thread, the anchor (null: the whole document, or a reply), the author. */
export function presentCommentFields(comment: StoredComment) {
  return {
    thread_id: comment.thread_id ?? comment.id,
    body: comment.body,
    anchor: comment.anchor_from && comment.anchor_to ? { from: comment.anchor_from, to: comment.anchor_to } : null,
    quote: comment.quote,
    author_id: comment.author_id,
    author_mrn: memberMrn(comment.author_id),
    edited_at: iso(comment.edited_at),
    resolved_at: iso(comment.resolved_at),
    resolved_by: comment.resolved_by,
    created_at: iso(comment.created_at)!,
  };
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
