import { css } from '@wpk/ui';

/** The native buttons, fields and the toolbar's look, shared by the app's screens (kit tokens only). */
export const CONTROL_STYLES = css`
  button {
    font: inherit;
    padding: var(--wpk-space-1) var(--wpk-space-3);
    border: 1px solid var(--wpk-color-border-strong);
    border-radius: var(--wpk-radius-s);
    background: var(--wpk-color-surface-raised);
    color: var(--wpk-color-text);
    cursor: pointer;
  }
  button:hover { background: var(--wpk-color-brand-quiet); }
  button[aria-pressed='true'] { background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); }
  button:disabled { cursor: default; color: var(--wpk-color-text-muted); background: var(--wpk-color-surface); }
  button.danger { color: var(--wpk-color-danger); }
  :focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
  input, textarea, select {
    font: inherit;
    padding: var(--wpk-space-1) var(--wpk-space-2);
    border: 1px solid var(--wpk-color-border-strong);
    border-radius: var(--wpk-radius-s);
    background: var(--wpk-color-surface);
    color: var(--wpk-color-text);
    min-width: 0;
  }
  .toolbar { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); align-items: center; }
`;
