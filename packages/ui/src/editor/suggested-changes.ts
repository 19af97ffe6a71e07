import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';

/**
 * What a fork of a document changes against its base (docs/decisions/0321-papers-suggesting-ui.md):
 * read from the fork's own Yjs items, not from a text diff. An item is inserted when the fork
 * shows it and the base's snapshot does not; deleted when the base shows it and the fork does
 * not (the fork keeps deleted content: `gc: false`). `type` and `index` say where it is in the
 * fork (the index among the parent's live items), `block` whether it is a whole element.
 */
export interface SuggestedChange {
  kind: 'insert' | 'delete';
  text: string;
  type: Y.AbstractType<unknown>;
  index: number;
  length: number;
  block: boolean;
}

const visibleIn = (item: Y.Item, base: Y.Snapshot) => (base.sv.get(item.id.client) ?? 0) > item.id.clock && !Y.isDeleted(base.ds, item.id);

/** The text of an element or text, as one who sees `visible` items reads it (a mention as `@name`). */
function textOf(type: Y.AbstractType<unknown>, visible: (item: Y.Item) => boolean): string {
  if (type instanceof Y.XmlElement && type.nodeName === 'mention') return `@${String(type.getAttribute('label') ?? '')}`;
  let text = '';
  for (let item = type._start; item; item = item.right) {
    if (!visible(item)) continue;
    if (item.content instanceof Y.ContentString) text += item.content.str;
    else if (item.content instanceof Y.ContentType) text += (text && item.content.type instanceof Y.XmlElement && !(type instanceof Y.XmlElement && type.nodeName === 'paragraph') ? ' ' : '') + textOf(item.content.type, visible);
  }
  return text;
}

/** Every change of `fragment` (a fork's) against `base`, in document order; adjacent ones of a kind in one text joined. */
export function suggestedChanges(fragment: Y.XmlFragment, base: Y.Snapshot): SuggestedChange[] {
  const changes: SuggestedChange[] = [];
  const walk = (type: Y.AbstractType<unknown>) => {
    let index = 0;
    let last: SuggestedChange | null = null;
    for (let item = type._start; item; item = item.right) {
      const now = !item.deleted;
      const before = visibleIn(item, base);
      const length = now && item.countable ? item.length : 0;
      if (now !== before && (item.content instanceof Y.ContentString || item.content instanceof Y.ContentType)) {
        const kind = now ? 'insert' : 'delete';
        const block = item.content instanceof Y.ContentType;
        const text = item.content instanceof Y.ContentString ? item.content.str : textOf((item.content as Y.ContentType).type, now ? (one) => !one.deleted : (one) => visibleIn(one, base));
        if (!block && last && last.kind === kind && !last.block && last.index + last.length === index) {
          last.text += text;
          last.length += length;
        } else {
          last = { kind, text, type, index, length, block };
          changes.push(last);
        }
      } else {
        last = null;
        if (now && before && item.content instanceof Y.ContentType) walk(item.content.type as Y.AbstractType<unknown>);
      }
      index += length;
    }
  };
  walk(fragment as unknown as Y.AbstractType<unknown>);
  return changes;
}

/**
 * What a suggestion (a Yjs update) would change in the document `base` now: the text it inserts
 * and the text it deletes, a run each, for a reviewer's preview.
 */
export function describeSuggestion(base: Y.Doc, update: Uint8Array, field = 'default'): { inserted: string[]; deleted: string[] } {
  const fork = new Y.Doc({ gc: false });
  Y.applyUpdate(fork, Y.encodeStateAsUpdate(base));
  const before = Y.snapshot(fork);
  Y.applyUpdate(fork, update);
  const changes = suggestedChanges(fork.getXmlFragment(field), before).filter((change) => change.text.trim() !== '');
  fork.destroy();
  return { inserted: changes.filter((change) => change.kind === 'insert').map((change) => change.text), deleted: changes.filter((change) => change.kind === 'delete').map((change) => change.text) };
}

const suggestedKey = new PluginKey<DecorationSet>('wpk-suggested-changes');

/** The decorations of a fork's changes: insertions as `<ins>`, deleted text as a `<del>` widget where it was. */
function decorationsOf(state: EditorState, fragment: Y.XmlFragment, base: Y.Snapshot): DecorationSet {
  const sync = ySyncPluginKey.getState(state) as { binding?: { mapping: Map<unknown, unknown> } } | undefined;
  const doc = fragment.doc;
  if (!sync?.binding || !doc) return DecorationSet.empty;
  const mapping = sync.binding.mapping;
  const at = (type: Y.AbstractType<unknown>, index: number) => relativePositionToAbsolutePosition(doc, fragment, Y.createRelativePositionFromTypeIndex(type, index), mapping as never);
  const decorations: Decoration[] = [];
  for (const change of suggestedChanges(fragment, base)) {
    const from = at(change.type, change.index);
    if (from === null) continue;
    if (change.kind === 'insert' && change.block) {
      const node = state.doc.nodeAt(from);
      if (node) decorations.push(Decoration.node(from, from + node.nodeSize, { class: 'wpk-suggested-insert' }));
    } else if (change.kind === 'insert') {
      decorations.push(Decoration.inline(from, from + change.length, { nodeName: 'ins', class: 'wpk-suggested-insert' }));
    } else if (change.text !== '') {
      const text = change.text;
      decorations.push(
        Decoration.widget(
          from,
          () => {
            const element = document.createElement('del');
            element.className = change.block ? 'wpk-suggested-delete wpk-suggested-block' : 'wpk-suggested-delete';
            element.contentEditable = 'false';
            element.textContent = text;
            return element;
          },
          { side: -1, key: `del:${change.block ? 'b' : 'i'}:${text}`, ignoreSelection: true },
        ),
      );
    }
  }
  return DecorationSet.create(state.doc, decorations);
}

/**
 * Shows a fork's changes in its editor: recomputed (after the binding has written the edit to
 * Yjs) on every change of the fork, against `base()`: the live document's snapshot.
 */
export function suggestedChangesExtension(fork: Y.Doc, base: () => Y.Snapshot, field = 'default') {
  return Extension.create({
    name: 'suggestedChanges',
    addProseMirrorPlugins() {
      return [
        new Plugin<DecorationSet>({
          key: suggestedKey,
          state: {
            init: () => DecorationSet.empty,
            apply: (tr, set) => (tr.getMeta(suggestedKey) as DecorationSet | undefined) ?? set.map(tr.mapping, tr.doc),
          },
          props: { decorations: (state) => suggestedKey.getState(state) },
          view: (view: EditorView) => {
            let timer: ReturnType<typeof setTimeout> | null = null;
            const refresh = () => {
              timer ??= setTimeout(() => {
                timer = null;
                if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(suggestedKey, decorationsOf(view.state, fork.getXmlFragment(field), base())).setMeta('addToHistory', false));
              });
            };
            fork.on('update', refresh);
            refresh();
            return {
              destroy: () => {
                fork.off('update', refresh);
                if (timer) clearTimeout(timer);
              },
            };
          },
        }),
      ];
    },
  });
}
