import { LitElement, html } from 'lit';
import { localeOf } from '../app.js';
import { formatDate, formatMoney, type DateStyle } from '../format.js';

/**
 * `<wpk-date value="2027-03-12T14:05:00Z" format="datetime">`: an instant or a day in the
 * member's locale and time zone, in a `<time>` element whose `datetime` keeps the exact value.
 */
export class WpkDate extends LitElement {
  static override properties = { value: { type: String }, format: { type: String } };
  declare value: string;
  declare format: DateStyle;

  constructor() {
    super();
    this.value = '';
    this.format = 'date';
  }

  protected override render() {
    if (!this.value) return html``;
    const { locale, timeZone } = localeOf();
    return html`<time datetime=${this.value}>${formatDate(this.value, { locale, timeZone, style: this.format })}</time>`;
  }
}

/** `<wpk-money amount="1234.50" currency="EUR">`: an amount (a decimal string) in the member's locale. */
export class WpkMoney extends LitElement {
  static override properties = { amount: { type: String }, currency: { type: String } };
  declare amount: string;
  declare currency: string;

  constructor() {
    super();
    this.amount = '';
    this.currency = 'EUR';
  }

  protected override render() {
    if (this.amount === '') return html``;
    return html`${formatMoney(this.amount, this.currency, { locale: localeOf().locale })}`;
  }
}

customElements.define('wpk-date', WpkDate);
customElements.define('wpk-money', WpkMoney);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-date': WpkDate;
    'wpk-money': WpkMoney;
  }
}
