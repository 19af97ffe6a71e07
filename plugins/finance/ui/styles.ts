import { css, screenStyles as kitScreenStyles } from '@wpk/ui';

/**
 * The styles the app's screens share, on top of the kit's screen styles (headings, the way back,
 * native selects): the selects' labelled fields (`.field`). Each screen adds the groups below it
 * uses, then its own.
 */
export const screenStyles = [
  kitScreenStyles,
  css`
    .field { display: grid; gap: var(--wpk-space-1); min-width: 0; }
    .field label { font-weight: var(--wpk-font-weight-bold); font-size: var(--wpk-font-size-s); }
  `,
];

/** A hand-made form: fields in a grid of columns that fold to one on a phone, rows of buttons. */
export const formStyles = css`
  form { display: grid; gap: var(--wpk-space-3); }
  .grid { display: grid; gap: var(--wpk-space-3); grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); align-items: start; }
  .grid > * { min-width: 0; }
  .field select { width: 100%; }
  .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
`;

/** A table of figures that scrolls sideways on its own (a focusable region), amounts right-aligned. */
export const tableStyles = css`
  .wrap { overflow-x: auto; }
  .wrap:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; }
  caption { text-align: left; font-weight: var(--wpk-font-weight-bold); padding-bottom: var(--wpk-space-2); }
  th, td { text-align: left; padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: top; }
  .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
`;
