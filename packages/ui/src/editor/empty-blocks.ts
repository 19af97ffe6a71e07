import * as Y from 'yjs';

/** The origin of the editor's own follow-up transactions (an empty text put in a new text block). */
export const EMPTY_TEXT = 'wpk-empty-text';

/**
 * Gives every text block this replica adds empty (a paragraph made by Enter, a table's cells, …) an
 * empty `Y.XmlText`, in a transaction that follows the one that added it (and travels with it: see
 * `CollabSession`). The editor's Yjs binding (y-prosemirror, as @tiptap/y-tiptap) writes a new
 * empty block as an element with no text; two members typing its first characters at once then
 * each create a `Y.XmlText` in it, and the binding joins the two on both replicas (the one who made
 * the second moves its text into the first, the other rewrites the first with the text its editor
 * shows, both): one member's first character ends up written twice (issue 43;
 * docs/decisions/0308-collab-convergence.md). With the block's one text there from the start, both
 * insert into it. The SDK writes empty blocks the same way (`writeRichText`). Only this replica's
 * own transactions are looked at (a remote block is its writer's to fill). Answers the function
 * that stops it.
 */
export function keepEmptyBlocksText(fragment: Y.XmlFragment, isTextBlock: (name: string) => boolean): () => void {
  const found = new Set<Y.XmlElement>();
  const visit = (type: unknown) => {
    if (!(type instanceof Y.XmlElement)) return;
    if (type.length === 0 && isTextBlock(type.nodeName)) found.add(type);
    for (const child of type.toArray()) visit(child);
  };
  const observer = (events: Array<Y.YEvent<Y.XmlElement | Y.XmlText>>, transaction: Y.Transaction) => {
    if (!transaction.local || transaction.origin === EMPTY_TEXT) return;
    for (const event of events) {
      if (event.target instanceof Y.XmlText) continue;
      if (event.target instanceof Y.XmlElement && event.target.length === 0 && isTextBlock(event.target.nodeName)) found.add(event.target);
      for (const item of event.changes.added) if (item.content instanceof Y.ContentType) visit(item.content.type);
    }
    if (found.size === 0) return;
    const blocks = [...found].filter((block) => block.length === 0 && !block._item?.deleted);
    found.clear();
    if (blocks.length > 0) fragment.doc?.transact(() => blocks.forEach((block) => block.insert(0, [new Y.XmlText()])), EMPTY_TEXT);
  };
  fragment.observeDeep(observer);
  return () => fragment.unobserveDeep(observer);
}
