import { LitElement, css, html } from 'lit';
import './wa.js';

interface Toast {
  id: number;
  message: string;
  variant: 'success' | 'danger' | 'neutral';
}

/**
 * `<wpk-toaster>`: the stack of short messages in a corner of the shell. `show(message, variant)`
 * adds one for five seconds (ten for a failure); screen readers hear each (a polite live region,
 * assertive for failures). Apps reach it through `bridge.toast()` / `toast()`.
 */
export class WpkToaster extends LitElement {
  static override properties = { toasts: { state: true } };
  declare toasts: Toast[];
  private next = 1;

  constructor() {
    super();
    this.toasts = [];
  }

  static override styles = css`
    :host { position: fixed; inset: auto var(--wpk-space-4) var(--wpk-space-4) auto; z-index: 1000; display: grid; gap: var(--wpk-space-2); max-width: min(24rem, calc(100vw - 2rem)); }
    wa-callout { box-shadow: var(--wpk-shadow-raised); }
    .row { display: flex; gap: var(--wpk-space-2); align-items: center; justify-content: space-between; }
  `;

  /** Shows a message. */
  show(message: string, variant: Toast['variant'] = 'neutral'): void {
    const toast = { id: this.next++, message: String(message).slice(0, 500), variant };
    this.toasts = [...this.toasts, toast];
    setTimeout(() => this.dismiss(toast.id), variant === 'danger' ? 10_000 : 5_000);
  }

  private dismiss(id: number): void {
    this.toasts = this.toasts.filter((toast) => toast.id !== id);
  }

  protected override render() {
    return html`<div role="status" aria-live="polite">
        ${this.toasts.filter((toast) => toast.variant !== 'danger').map((toast) => this.item(toast))}
      </div>
      <div role="alert">${this.toasts.filter((toast) => toast.variant === 'danger').map((toast) => this.item(toast))}</div>`;
  }

  private item(toast: Toast) {
    return html`<wa-callout variant=${toast.variant === 'neutral' ? 'brand' : toast.variant}>
      <div class="row"><span>${toast.message}</span><wa-button size="small" appearance="plain" @click=${() => this.dismiss(toast.id)}>Dismiss</wa-button></div>
    </wa-callout>`;
  }
}

customElements.define('wpk-toaster', WpkToaster);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-toaster': WpkToaster;
  }
}
