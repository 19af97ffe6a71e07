import * as Y from 'yjs';
import type { BaseContext } from '../app/context.js';
import type { ModelMap, ScopedModel } from '../app/models.js';
import { InvalidError } from '../errors.js';
import { emptyRichText, richTextBadRecord, richTextFromFragment, richTextPlain, richTextTypes, writeRichText, type RichTextNode } from './rich-text.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the app's contexts (request, subscription, service)
type AnyContext<M extends ModelMap> = BaseContext<M, any>;

/**
 * Collaborative documents (Yjs) for an app: the editing stack papers uses and wiki, slides and
 * canvas can adopt (docs/app-kit/collab-documents.md). A document is stored in two tables of the
 * app's:
 *
 * - `documents` (one row a document, keyed by `key`): `state` (bytea, nullable: the Yjs snapshot,
 *   every update merged so far), `content` (jsonb: the **stable JSON snapshot**, ProseMirror JSON
 *   for rich text, always the document's current state, readable without Yjs) and `text` (text: its
 *   plain text, for search and diffs);
 * - `updates` (one row an update not yet merged): `id` (uuid), `key`, `data` (bytea), `member_id`
 *   (uuid, nullable: null for the server's own edits).
 *
 * Every change runs under the document's lock (`ctx.lock`), so writers of one document take
 * turns and a compaction never loses an update: the update is applied to the stored state, the
 * document is checked (its roots, the rich text's node and mark types, then the app's `check`),
 * stored, the JSON snapshot refreshed, every `compactAfter` updates merged into `state`, and after
 * commit the update is published on the app's live channel as `doc.updated`
 * (`{ update: base64, member_id }`). A bad update is refused with a 400 naming the problem and
 * nothing is stored.
 */
export interface CollabDocumentsSpec<M extends ModelMap> {
  /** The model holding one row a document (`state`, `content`, `text` and the key column). */
  documents: keyof M & string;
  /** The model holding the updates not yet merged (`id`, the key column, `data`, `member_id`). */
  updates: keyof M & string;
  /** The column naming the document in both tables (`paper_id`). */
  key: string;
  /** The live channel of a document, `{kind}/{id}` (`papers/{id}`); none: nothing is published. */
  channel?: (id: string) => string;
  /** Merge the stored updates into `state` once this many are stored (a number or read from the context, e.g. a setting). */
  compactAfter: number | ((ctx: AnyContext<M>) => number);
  /**
   * The rich text the document holds: a `Y.XmlFragment` named `field` (tiptap's default:
   * `default`), and which node and mark types it may contain. Absent: the document is free-form
   * and `content` is `doc.toJSON()` of its roots.
   */
  richText?: { field?: string; nodes: readonly string[]; marks: readonly string[] };
  /** The root names an update may write (default: the rich text's field, or `rootTypes`' names). */
  roots?: readonly string[];
  /**
   * A free-form document's roots by type (`{ slides: 'array' }`): `content` is read through them
   * (a root Yjs has not been told the type of reads as nothing), and an update that writes one as
   * another type is refused. Slides: `plugins/slides/src/services/document.ts`.
   */
  rootTypes?: Readonly<Record<string, 'array' | 'map' | 'text'>>;
  /**
   * How a free-form document's JSON (`doc.toJSON()` of its roots) is stored and checked, e.g.
   * Slides' slides sorted by their fractional `order` key. Absent: as it is.
   */
  content?: (json: Record<string, unknown>) => Record<string, unknown>;
  /**
   * The app's own check of the document after a change: a problem (refused with a 400) or null.
   * `before` is the JSON snapshot before the change (what the change altered; absent when the
   * document is being created).
   */
  check?: (doc: Y.Doc, ctx: AnyContext<M>, id: string, before?: CollabSnapshot) => string | null | Promise<string | null>;
  /** The most characters of plain text a document may hold (default 1,000,000). */
  maxText?: number;
}

/**
 * The node and mark types of `<wpk-collab-editor>` (tiptap's starter kit, checklists, tables,
 * images, mentions, MRN chips `record`): what an app's `richText` allows when its documents are written with that
 * editor (Papers, Wiki).
 */
export const COLLAB_EDITOR_NODES = [
  'paragraph', 'heading', 'blockquote', 'bulletList', 'orderedList', 'listItem', 'taskList', 'taskItem', 'codeBlock', 'horizontalRule', 'hardBreak',
  'table', 'tableRow', 'tableHeader', 'tableCell', 'image', 'mention', 'record',
] as const;
export const COLLAB_EDITOR_MARKS = ['bold', 'italic', 'strike', 'underline', 'code', 'link', 'highlight'] as const;

/** A client's Yjs update as sent in a request (base64), decoded and checked: a 400 naming `update` otherwise. */
export function decodeCollabUpdate(encoded: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new InvalidError('update: must be base64');
  const bytes = Buffer.from(encoded, 'base64');
  try {
    Y.decodeUpdate(bytes);
  } catch {
    throw new InvalidError('update: not a Yjs update (it could not be decoded)');
  }
  return new Uint8Array(bytes);
}

/** A document as stored: its snapshot and updates merged into one `Y.Doc`. */
export interface LoadedCollabDocument {
  doc: Y.Doc;
  /** The stored updates not yet in the snapshot. */
  updateIds: string[];
}

/** A change: a client's Yjs update, or an edit the server makes. */
export type CollabChange = { update: Uint8Array } | { edit(doc: Y.Doc): void };

/** What a change did. */
export interface CollabResult {
  /** False when the update brought nothing new (already applied): nothing was stored or published. */
  changed: boolean;
  /** The update applied (the server's edit as an update). */
  update: Uint8Array;
  /** The JSON snapshot after the change. */
  content: unknown;
  /** The JSON snapshot before it, read under the document's lock (what a change added: mentions, …). */
  content_before: unknown;
  /** Its plain text. */
  text: string;
  /** True when the JSON snapshot changed (an update may move only cursors' anchors or pending structs). */
  content_changed: boolean;
}

/** The stable JSON snapshot of a document, as stored beside its Yjs state. */
export interface CollabSnapshot {
  content: unknown;
  text: string;
}

export interface CollabDocuments<M extends ModelMap> {
  /** Creates a document's row with `content` (rich text JSON; default: one empty paragraph). */
  create(ctx: AnyContext<M>, id: string, content?: RichTextNode): Promise<CollabSnapshot>;
  /** Reads a document's Yjs state (with `lock`: under its lock, for the rest of the transaction). */
  load(ctx: AnyContext<M>, id: string, options?: { lock?: boolean }): Promise<LoadedCollabDocument>;
  /** The whole Yjs state as one update (what a client applies first). */
  state(ctx: AnyContext<M>, id: string): Promise<Uint8Array>;
  /** The stable JSON snapshot (no Yjs involved), or null for an unknown document. */
  snapshot(ctx: AnyContext<M>, id: string): Promise<CollabSnapshot | null>;
  /** Applies a change (see the spec); `memberId` is stored with the update and published. */
  apply(ctx: AnyContext<M>, id: string, change: CollabChange, memberId: string | null): Promise<CollabResult>;
  /** Replaces a rich text document's content with `content` (a restore), as one server edit. */
  replace(ctx: AnyContext<M>, id: string, content: RichTextNode, memberId: string | null): Promise<CollabResult>;
  /** Deletes a document's rows. */
  remove(ctx: AnyContext<M>, id: string): Promise<void>;
  /** The JSON snapshot of a `Y.Doc` as this spec reads it. */
  contentOf(doc: Y.Doc): CollabSnapshot;
  /** The JSON snapshot rich text `content` would be stored as (attrs sorted, empty ones dropped), nothing stored: compare it with a stored one. */
  normalize(content: RichTextNode): CollabSnapshot;
}

interface DocumentRow {
  state: Buffer | null;
  content: unknown;
  text: string;
}

interface UpdateRow {
  id: string;
  data: Buffer;
}

/** Declares an app's collaborative documents (see `CollabDocumentsSpec`). */
export function defineCollabDocuments<M extends ModelMap>(spec: CollabDocumentsSpec<M>): CollabDocuments<M> {
  const field = spec.richText?.field ?? 'default';
  const roots = new Set(spec.roots ?? (spec.richText ? [field] : Object.keys(spec.rootTypes ?? {})));
  const maxText = spec.maxText ?? 1_000_000;
  const documents = (ctx: AnyContext<M>) => ctx.db[spec.documents] as unknown as ScopedModel<DocumentRow>;
  const updates = (ctx: AnyContext<M>) => ctx.db[spec.updates] as unknown as ScopedModel<UpdateRow>;
  const where = (id: string) => ({ [spec.key]: id }) as never;

  const contentOf = (doc: Y.Doc): CollabSnapshot => {
    if (spec.richText) {
      const content = richTextFromFragment(doc.getXmlFragment(field));
      return { content, text: richTextPlain(content) };
    }
    for (const [name, type] of Object.entries(spec.rootTypes ?? {})) {
      try {
        if (type === 'array') doc.getArray(name);
        else if (type === 'map') doc.getMap(name);
        else doc.getText(name);
      } catch {
        throw new InvalidError(`update: ${name} must be a Y.${type === 'array' ? 'Array' : type === 'map' ? 'Map' : 'Text'}`);
      }
    }
    const json = doc.toJSON();
    return { content: spec.content ? spec.content(json) : json, text: '' };
  };

  const problemOf = async (ctx: AnyContext<M>, id: string, doc: Y.Doc, snapshot: CollabSnapshot, before?: CollabSnapshot): Promise<string | null> => {
    const extra = [...doc.share.keys()].filter((name) => !roots.has(name));
    if (extra.length > 0) return `update: this document's roots are ${[...roots].join(', ') || 'none'}; the update writes ${extra.map((name) => JSON.stringify(name.slice(0, 60))).join(', ')}`;
    if (spec.richText) {
      const root = doc.share.get(field);
      if (root && !(root instanceof Y.XmlFragment) && root._start !== null) return `update: ${field} must be rich text (a Y.XmlFragment)`;
      const { nodes, marks } = richTextTypes(snapshot.content as RichTextNode);
      const allowedNodes = new Set(['doc', 'text', ...spec.richText.nodes]);
      const badNode = [...nodes].find((type) => !allowedNodes.has(type));
      if (badNode) return `update: the node type ${JSON.stringify(badNode.slice(0, 60))} is not one of ${spec.richText.nodes.join(', ')}`;
      const allowedMarks = new Set(spec.richText.marks);
      const badMark = [...marks].find((type) => !allowedMarks.has(type));
      if (badMark) return `update: the mark ${JSON.stringify(badMark.slice(0, 60))} is not one of ${spec.richText.marks.join(', ') || 'none'}`;
      const badRecord = nodes.has('record') ? richTextBadRecord(snapshot.content as RichTextNode) : null;
      if (badRecord !== null) return `update: a record's mrn must be mrn:{app}:{resource}:{id} (a label at most 500 characters); ${JSON.stringify(badRecord.slice(0, 200))} is not`;
    }
    if (snapshot.text.length > maxText) return `update: a document holds at most ${maxText} characters of text; this one would hold ${snapshot.text.length}`;
    return spec.check ? spec.check(doc, ctx, id, before) : null;
  };

  const load = async (ctx: AnyContext<M>, id: string, options: { lock?: boolean } = {}): Promise<LoadedCollabDocument> => {
    if (options.lock) await ctx.lock(`collab:${spec.documents}:${id}`);
    const doc = new Y.Doc({ gc: true });
    const stored = await documents(ctx).findOne({ where: where(id), attributes: ['state'] as never });
    if (stored?.state) Y.applyUpdate(doc, new Uint8Array(stored.state));
    const rows = await updates(ctx).findAll({ where: where(id), order: [['created_at', 'ASC'], ['id', 'ASC']] as never, attributes: ['id', 'data'] as never });
    for (const row of rows) Y.applyUpdate(doc, new Uint8Array(row.data));
    return { doc, updateIds: rows.map((row) => row.id) };
  };

  const apply = async (ctx: AnyContext<M>, id: string, change: CollabChange, memberId: string | null): Promise<CollabResult> => {
    const { doc, updateIds } = await load(ctx, id, { lock: true });
    const before = contentOf(doc);
    const vectorBefore = Buffer.from(Y.encodeStateVector(doc));
    let update: Uint8Array;
    if ('update' in change) {
      update = change.update;
      try {
        Y.applyUpdate(doc, update);
      } catch {
        throw new InvalidError('update: not a Yjs update (it could not be decoded)');
      }
    } else {
      const captured: Uint8Array[] = [];
      doc.on('update', (bytes: Uint8Array) => captured.push(bytes));
      doc.transact(() => change.edit(doc));
      update = captured.length === 0 ? new Uint8Array() : captured.length === 1 ? captured[0] : Y.mergeUpdates(captured);
    }
    const after = contentOf(doc);
    const contentChanged = JSON.stringify(after.content) !== JSON.stringify(before.content);
    if (contentChanged || [...doc.share.keys()].some((name) => !roots.has(name))) {
      const problem = await problemOf(ctx, id, doc, after, before);
      if (problem) throw new InvalidError(problem);
    }
    // An update that brings nothing new is not stored; one Yjs holds back (pending: it depends on
    // an update not seen yet) is, so the later one completes it.
    const pending = doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
    if (update.length === 0 || (!contentChanged && !pending && vectorBefore.equals(Buffer.from(Y.encodeStateVector(doc))))) {
      return { changed: false, update, content: after.content, content_before: before.content, text: after.text, content_changed: false };
    }
    const stored = await updates(ctx).create({ [spec.key]: id, data: Buffer.from(update), member_id: memberId } as never);
    const limit = typeof spec.compactAfter === 'number' ? spec.compactAfter : spec.compactAfter(ctx);
    if (updateIds.length + 1 >= limit) {
      await documents(ctx).upsert({ [spec.key]: id, state: Buffer.from(Y.encodeStateAsUpdate(doc)), content: after.content, text: after.text } as never, { conflictFields: [spec.key] as never });
      await updates(ctx).destroy({ where: { id: [...updateIds, stored.id] } as never });
    } else if (contentChanged) {
      await documents(ctx).upsert({ [spec.key]: id, content: after.content, text: after.text } as never, { conflictFields: [spec.key] as never, update: ['content', 'text'] as never });
    }
    if (spec.channel) ctx.live.publish(spec.channel(id), 'doc.updated', { update: Buffer.from(update).toString('base64'), member_id: memberId });
    return { changed: true, update, content: after.content, content_before: before.content, text: after.text, content_changed: contentChanged };
  };

  return {
    contentOf,
    load,
    apply,
    normalize(content) {
      if (!spec.richText) throw new Error('normalize: only a rich text document is written from JSON');
      const doc = new Y.Doc({ gc: true });
      writeRichText(doc.getXmlFragment(field), content);
      return contentOf(doc);
    },
    async create(ctx, id, content) {
      const doc = new Y.Doc({ gc: true });
      if (spec.richText) writeRichText(doc.getXmlFragment(field), content ?? emptyRichText());
      const snapshot = contentOf(doc);
      const problem = await problemOf(ctx, id, doc, snapshot);
      if (problem) throw new InvalidError(problem.replace(/^update: /, 'content: '));
      await documents(ctx).create({ [spec.key]: id, state: Buffer.from(Y.encodeStateAsUpdate(doc)), content: snapshot.content, text: snapshot.text } as never);
      return snapshot;
    },
    async state(ctx, id) {
      const { doc } = await load(ctx, id);
      return Y.encodeStateAsUpdate(doc);
    },
    async snapshot(ctx, id) {
      const row = await documents(ctx).findOne({ where: where(id), attributes: ['content', 'text'] as never });
      return row ? { content: row.content, text: row.text } : null;
    },
    async replace(ctx, id, content, memberId) {
      if (!spec.richText) throw new Error('replace: only a rich text document can be replaced from JSON');
      return apply(ctx, id, { edit: (doc) => writeRichText(doc.getXmlFragment(field), content) }, memberId);
    },
    async remove(ctx, id) {
      await updates(ctx).destroy({ where: where(id) });
      await documents(ctx).destroy({ where: where(id) });
    },
  };
}
