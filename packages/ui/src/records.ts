import { kit } from './app.js';
import type { SearchHit } from './bridge/protocol.js';
import { memberIdOf } from './members.js';

/**
 * Records named by MRN, as `<wpk-mrn-chip>` and the editor's `record` chip show them: one lookup
 * and one way of showing a record (docs/ui.md, "MRN chips"). What a chip shows comes from
 * `GET /search?app=…&mrn=…` through the shell, never from where the MRN was written: a record
 * the reader may not see (or that is not there) reads "Restricted record".
 */

/** An MRN as a chip holds it (the SDK's `RECORD_MRN`, search's `mrn` filter). */
export const MRN_PATTERN = 'mrn:[a-z0-9][a-z0-9._-]{0,99}:[a-z0-9_-]{1,100}:[A-Za-z0-9._-]{1,200}';
export const RECORD_MRN = new RegExp(`^${MRN_PATTERN}$`);

/** How chips find what they show, and open it. */
export interface RecordLookup {
  /** The record as search shows it to this member; null when it is not there or not theirs to see. */
  resolve(mrn: string): Promise<SearchHit | null>;
  /** Opens the record's page (`/app/{app}{url}`). */
  open(href: string): void;
}

/** A member named by MRN, from the member directory every member reads (search has no members). */
async function memberRecord(id: string): Promise<SearchHit | null> {
  const [member] = await kit().bridge.members([id]);
  return member && member.id === id ? { type: 'member', id: '', title: member.name, subtitle: '', url: '' } : null;
}

/**
 * The shell's lookup, kept for the page: each MRN is asked once (an answer, or the question on
 * its way, is shared by every chip of the page; a reload asks again).
 */
let shared: RecordLookup | null = null;
export function recordsThroughShell(): RecordLookup {
  if (shared) return shared;
  const answers = new Map<string, Promise<SearchHit | null>>();
  shared = {
    resolve(mrn) {
      let answer = answers.get(mrn);
      if (!answer) {
        const member = memberIdOf(mrn);
        answer = Promise.resolve()
          .then(() => (member !== null ? memberRecord(member) : kit().bridge.resolveMrn(mrn)))
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

/** A searchable type as a reader reads it (`leave_type` → "Leave type"). */
export const typeLabel = (type: string): string => {
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Record';
};

/** What a chip shows: still asking, the record as search shows it, or nothing to show (null). */
export type RecordChipState = SearchHit | null | 'loading';

/** Fills a chip's element: loading, the record's type and title (a link to its page when it has one), or "Restricted record". */
export function showRecordChip(dom: HTMLElement, state: RecordChipState, mrn: string, lookup: RecordLookup | null): void {
  dom.replaceChildren();
  dom.classList.toggle('wpk-record-restricted', state === null);
  if (state === 'loading') {
    dom.setAttribute('aria-busy', 'true');
    dom.append('Record…');
    return;
  }
  dom.removeAttribute('aria-busy');
  if (state === null) {
    dom.append('Restricted record');
    return;
  }
  const type = document.createElement('span');
  type.className = 'wpk-record-type';
  type.textContent = typeLabel(state.type);
  const title = state.title || state.id || typeLabel(state.type);
  if (!state.url) {
    dom.append(type, ` ${title}`);
    return;
  }
  const link = document.createElement('a');
  link.href = `/app/${mrn.split(':')[1] ?? ''}${state.url}`;
  link.append(type, ` ${title}`);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    lookup?.open(link.getAttribute('href')!);
  });
  dom.append(link);
}

/** Looks `mrn` up and shows it in `dom` (loading first); `current()` is the MRN the chip holds when the answer arrives (a stale answer is dropped). */
export function fillRecordChip(dom: HTMLElement, mrn: string, lookup: RecordLookup | null, current: () => string): void {
  showRecordChip(dom, 'loading', mrn, lookup);
  if (!lookup || !RECORD_MRN.test(mrn)) return showRecordChip(dom, null, mrn, lookup);
  void lookup.resolve(mrn).then((hit) => {
    if (current() === mrn) showRecordChip(dom, hit, mrn, lookup);
  });
}

/** The chip's look, its rules under `scope` (the editor's element; empty inside a shadow root). */
export function recordChipCss(scope: string): string {
  return `${scope} .wpk-record { display: inline-flex; gap: 4px; align-items: baseline; padding: 0 6px; border: 1px solid #8a94a6; border-radius: 999px; background: #f1f5f9; color: #1f2933; white-space: nowrap; }
${scope} .wpk-record a { color: #1e3a8a; text-decoration: none; }
${scope} .wpk-record a:focus-visible { outline: 2px solid #1d4ed8; outline-offset: 2px; }
${scope} .wpk-record .wpk-record-type { font-size: 0.85em; color: #3e4c59; }
${scope} .wpk-record.wpk-record-restricted { color: #3e4c59; font-style: italic; }
`;
}
