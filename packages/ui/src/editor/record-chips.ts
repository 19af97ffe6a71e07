import { InputRule, mergeAttributes, Node, PasteRule } from '@tiptap/core';
import { fillRecordChip, MRN_PATTERN as MRN, RECORD_MRN, recordsThroughShell, type RecordLookup } from '../records.js';

export { RECORD_MRN, recordsThroughShell, type RecordLookup };

/**
 * MRN chips: any app's record named by its MRN (`record`, an inline atom: `mrn`, perhaps the
 * `label` its author saw), shown as search shows it to the reader, as `<wpk-mrn-chip>` shows it
 * (../records.ts): never from the document, so a record the reader may not see is "Restricted
 * record", whatever its stored label.
 */

/**
 * The `record` node: written `<span data-type="record" data-mrn="…">Label</span>` (the SDK's
 * HTML), shown as a chip looked up through `lookup` (default: the shell's, `recordsThroughShell`).
 * A bare MRN typed (then a space) or pasted becomes a chip.
 */
export const RecordChip = Node.create<{ lookup: (() => RecordLookup | null) | null }>({
  name: 'record',
  group: 'inline',
  inline: true,
  atom: true,
  addOptions() {
    return { lookup: null };
  },
  addAttributes() {
    return {
      mrn: { default: null, parseHTML: (element) => element.getAttribute('data-mrn'), renderHTML: (attributes) => ({ 'data-mrn': attributes.mrn as string }) },
      label: { default: null, parseHTML: (element) => element.textContent?.trim() || null, renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-type="record"]', getAttrs: (element) => (RECORD_MRN.test((element as HTMLElement).getAttribute('data-mrn') ?? '') ? null : false) }];
  },
  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes({ 'data-type': 'record' }, HTMLAttributes), String(node.attrs.label || node.attrs.mrn || '')];
  },
  renderText({ node }) {
    return String(node.attrs.label || node.attrs.mrn || '');
  },
  addNodeView() {
    const lookup = () => (this.options.lookup ? this.options.lookup() : recordsThroughShell());
    return ({ node }) => {
      const dom = document.createElement('span');
      dom.className = 'wpk-record';
      dom.dataset.type = 'record';
      let mrn = String(node.attrs.mrn ?? '');
      dom.dataset.mrn = mrn;
      const fill = () => fillRecordChip(dom, mrn, lookup(), () => mrn);
      fill();
      return {
        dom,
        update: (next) => {
          if (next.type.name !== 'record') return false;
          const nextMrn = String(next.attrs.mrn ?? '');
          if (nextMrn !== mrn) {
            mrn = nextMrn;
            dom.dataset.mrn = mrn;
            fill();
          }
          return true;
        },
        ignoreMutation: () => true,
      };
    };
  },
  addInputRules() {
    // A bare MRN followed by a space: the chip, then the space.
    return [
      new InputRule({
        find: new RegExp(`(?:^|\\s)(${MRN})\\s$`),
        handler: ({ state, range, match }) => {
          const mrn = match[1]!;
          const start = range.from + match[0].indexOf(mrn);
          state.tr.replaceWith(start, range.to, [this.type.create({ mrn }), state.schema.text(' ')]);
        },
      }),
    ];
  },
  addPasteRules() {
    return [
      new PasteRule({
        find: new RegExp(`(?<![\\w:])${MRN}(?![\\w:.-])`, 'g'),
        handler: ({ state, range, match }) => {
          state.tr.replaceWith(range.from, range.to, this.type.create({ mrn: match[0] }));
        },
      }),
    ];
  },
});
