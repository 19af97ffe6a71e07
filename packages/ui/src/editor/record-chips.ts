import { InputRule, mergeAttributes, Node, PasteRule } from '@tiptap/core';
import { kit } from '../app.js';
import type { SearchHit } from '../bridge/protocol.js';

/**
 * MRN chips: any app's record named by its MRN (`record`, an inline atom: `mrn`, perhaps the
 * `label` its author saw), shown as search shows it to the reader. What a chip may show comes
 * from `GET /search?app=…&mrn=…` through the shell (`bridge.resolveMrn`), never from the
 * document: a record the reader may not see is "Restricted record", whatever its stored label.
 */

/** An MRN as a chip holds it (the SDK's `RECORD_MRN`, search's `mrn` filter). */
const MRN = 'mrn:[a-z0-9][a-z0-9._-]{0,99}:[a-z0-9_-]{1,100}:[A-Za-z0-9._-]{1,200}';
export const RECORD_MRN = new RegExp(`^${MRN}$`);

/** How an editor finds what a chip shows, and opens it. */
export interface RecordLookup {
  /** The record as search shows it to this member; null when it is not there or not theirs to see. */
  resolve(mrn: string): Promise<SearchHit | null>;
  /** Opens the record's page (`/app/{app}{url}`). */
  open(href: string): void;
}

/**
 * The shell's lookup, kept for the page: each MRN is asked once (an answer, or the question on
 * its way, is shared by every chip and editor of the page; a reload asks again).
 */
let shared: RecordLookup | null = null;
export function recordsThroughShell(): RecordLookup {
  if (shared) return shared;
  const answers = new Map<string, Promise<SearchHit | null>>();
  shared = {
    resolve(mrn) {
      let answer = answers.get(mrn);
      if (!answer) {
        answer = Promise.resolve()
          .then(() => kit().bridge.resolveMrn(mrn))
          .catch(() => null);
        answers.set(mrn, answer);
      }
      return answer;
    },
    open(href) {
      void kit().bridge.open(href);
    },
  };
  return shared;
}

/** The app of an MRN (`mrn:{app}:…`). */
const appOf = (mrn: string) => mrn.split(':')[1] ?? '';

/** A searchable type as a reader reads it (`leave_type` → "Leave type"). */
const typeLabel = (type: string) => {
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Record';
};

/** Fills a chip's element: loading, the record as search shows it (a link when it has a page), or "Restricted record". */
function showChip(dom: HTMLElement, hit: SearchHit | null | 'loading', mrn: string, lookup: RecordLookup | null): void {
  dom.replaceChildren();
  dom.classList.toggle('wpk-record-restricted', hit === null);
  if (hit === 'loading') {
    dom.setAttribute('aria-busy', 'true');
    dom.append('Record…');
    return;
  }
  dom.removeAttribute('aria-busy');
  if (hit === null) {
    dom.append('Restricted record');
    return;
  }
  const type = document.createElement('span');
  type.className = 'wpk-record-type';
  type.textContent = typeLabel(hit.type);
  const title = hit.title || hit.id || typeLabel(hit.type);
  if (!hit.url) {
    dom.append(type, ` ${title}`);
    return;
  }
  const link = document.createElement('a');
  link.href = `/app/${appOf(mrn)}${hit.url}`;
  link.append(type, ` ${title}`);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    lookup?.open(link.getAttribute('href')!);
  });
  dom.append(link);
}

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
      const fill = () => {
        const asked = mrn;
        const records = lookup();
        showChip(dom, 'loading', asked, records);
        if (!records || !RECORD_MRN.test(asked)) return showChip(dom, null, asked, records);
        void records.resolve(asked).then((hit) => {
          if (asked === mrn) showChip(dom, hit, asked, records);
        });
      };
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
