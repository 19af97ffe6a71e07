import { css } from 'lit';

/** Rules every kit component shares inside its shadow root. */
export const sharedStyles = css`
  .wpk-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .error { color: var(--wpk-color-danger); margin: 0; }
  .muted { color: var(--wpk-color-text-muted); }
`;
