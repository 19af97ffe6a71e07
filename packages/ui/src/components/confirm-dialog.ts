import { LitElement, html } from 'lit';
import './wa.js';

/** What a confirmation asks. */
export interface ConfirmOptions {
  title: string;
  message: string;
  confirm_label?: string;
  danger?: boolean;
}

/**
 * `<wpk-confirm-dialog>`: a modal question on Web Awesome's dialog (focus trapped, Escape
 * cancels, focus returns where it was). `ask(options)` resolves true when confirmed. The shell
 * answers an app's `bridge.confirm()` with it; a page of the shell can use it directly.
 */
export class WpkConfirmDialog extends LitElement {
  static override properties = { options: { state: true } };
  declare options: ConfirmOptions | null;
  private answer: ((confirmed: boolean) => void) | null = null;

  constructor() {
    super();
    this.options = null;
  }

  /** Opens the dialog; resolves true for the confirm button, false for cancel or Escape. */
  async ask(options: ConfirmOptions): Promise<boolean> {
    this.answer?.(false);
    this.options = options;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('wa-dialog') as (HTMLElement & { open: boolean }) | null;
    if (dialog) dialog.open = true;
    return new Promise((resolve) => {
      this.answer = resolve;
    });
  }

  private close(confirmed: boolean): void {
    const dialog = this.renderRoot.querySelector('wa-dialog') as (HTMLElement & { open: boolean }) | null;
    if (dialog) dialog.open = false;
    const answer = this.answer;
    this.answer = null;
    answer?.(confirmed);
  }

  protected override render() {
    const options = this.options;
    return html`<wa-dialog label=${options?.title ?? 'Confirm'} @wa-after-hide=${() => this.close(false)}>
      <p>${options?.message ?? ''}</p>
      <wa-button slot="footer" appearance="outlined" @click=${() => this.close(false)}>Cancel</wa-button>
      <wa-button slot="footer" variant=${options?.danger ? 'danger' : 'brand'} @click=${() => this.close(true)}>${options?.confirm_label ?? 'Confirm'}</wa-button>
    </wa-dialog>`;
  }
}

customElements.define('wpk-confirm-dialog', WpkConfirmDialog);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-confirm-dialog': WpkConfirmDialog;
  }
}
