import { css } from 'lit';

/** Rules every kit component shares inside its shadow root. */
export const sharedStyles = css`
  .wpk-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .error { color: var(--wpk-color-danger); margin: 0; }
  .muted { color: var(--wpk-color-text-muted); }
`;

/**
 * The look every app screen starts from (docs/ui.md, "Screen styles"), after `sharedStyles`: a
 * block host, the heading (`h1`) and section headings (`h2`), the way back (`.back`) and a native
 * `<select>` that reads as the kit's inputs. A screen adds its own rules after it.
 */
export const screenStyles = [
  sharedStyles,
  css`
    :host { display: block; }
    h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); }
    h2 { font-size: var(--wpk-font-size-l); margin: var(--wpk-space-5) 0 var(--wpk-space-2); }
    .back { margin: 0 0 var(--wpk-space-3); }
    select { font: inherit; padding: var(--wpk-space-2); color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-m); max-width: 100%; }
    select:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 1px; }
  `,
];

/**
 * Cards, tables and simple forms (docs/ui.md, "Screen styles"), after `screenStyles`: `ul.cards`
 * (one bordered card a item), `.actions` (a wrapping row of buttons), a full-width `table` with a
 * `.scroll` box around it, and `form.fields` (labels above their inputs, the button under them).
 */
export const cardStyles = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; margin-top: var(--wpk-space-2); }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); }
  .scroll { overflow-x: auto; }
  form.fields { display: grid; gap: var(--wpk-space-1); max-width: 32rem; }
  form.fields label { font-weight: var(--wpk-font-weight-bold); margin-top: var(--wpk-space-2); }
  form.fields button { justify-self: start; margin-top: var(--wpk-space-3); }
`;
