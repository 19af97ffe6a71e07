import { DomainError, InvalidError } from '@wpk/sdk';
import type { BillingConfig } from './config.js';

/** A card as the caller typed it. It lives in memory for the one call to the provider, never in a row or a log line. */
export interface CardInput {
  card_number: string;
  expiry_month: string;
  expiry_year: string;
  cvv: string;
}

/** What the provider hands back and what we keep: its token, the brand, the last four digits and the expiry. */
export interface TokenizedCard {
  token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** A refusal by the provider (declined, invalid): answered 402 with the provider's reason. */
export class CardDeclinedError extends DomainError {
  constructor(message: string) {
    super(402, message);
  }
}

/** The provider could not be reached or answered nonsense: 502, nothing stored. */
export class ProviderUnavailableError extends DomainError {
  constructor(message: string) {
    super(502, message);
  }
}

/** A charge of an invoice to a stored card. `amount` is in the currency's minor unit (cents). */
export interface ChargeInput {
  token: string;
  amount: bigint;
  currency: string;
  /** The same key for a retry of the same attempt: the provider charges at most once per key. */
  idempotencyKey: string;
  description: string;
  metadata: { workspace_id: string; invoice_id: string };
}

/** A charge the provider accepted: its id. A refusal throws CardDeclinedError; an unreachable provider ProviderUnavailableError. */
export interface ChargeResult {
  id: string;
}

/**
 * The payment-provider interface: the only place card numbers go. `tokenize` sends the card to
 * the provider and returns its token; `name` is stored with the token. `charge` collects an
 * amount from a stored token; `detach` tells the provider a token is no longer ours to charge.
 */
export interface PaymentProvider {
  readonly name: string;
  tokenize(card: CardInput, customer: { workspaceId: string }): Promise<TokenizedCard>;
  charge(input: ChargeInput): Promise<ChargeResult>;
  detach(token: string): Promise<void>;
}

/** The Luhn check digit rule. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand by the number's leading digits (the networks' published ranges). */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6][0-9]|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/**
 * The checks every provider shares, done before anything leaves the process: digits only
 * (spaces and dashes are dropped), a month 1-12, a 2- or 4-digit year, an expiry not in the past
 * (by `now`), a 3-4 digit CVV (4 for amex).
 */
export function normalizeCard(card: CardInput, now: Date): { number: string; month: number; year: number; cvv: string } {
  const number = card.card_number.replace(/[\s-]/g, '');
  if (!/^[0-9]{13,19}$/.test(number)) throw new InvalidError('card_number must be 13-19 digits');
  if (!/^[0-9]{1,2}$/.test(card.expiry_month) || Number(card.expiry_month) < 1 || Number(card.expiry_month) > 12) throw new InvalidError('expiry_month must be a month from 1 to 12');
  if (!/^([0-9]{2}|[0-9]{4})$/.test(card.expiry_year)) throw new InvalidError('expiry_year must be 2 or 4 digits');
  if (!/^[0-9]{3,4}$/.test(card.cvv)) throw new InvalidError('cvv must be 3 or 4 digits');
  const month = Number(card.expiry_month);
  const year = card.expiry_year.length === 2 ? 2000 + Number(card.expiry_year) : Number(card.expiry_year);
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < thisMonth) throw new InvalidError('the card has expired (expiry_month/expiry_year lie in the past)');
  return { number, month, year, cvv: card.cvv };
}

/**
 * The local provider, for development and tests: no network. A number must pass the Luhn check;
 * the test numbers below decline as a real provider's test mode does; every other valid number is
 * accepted and gets a token `tok_local_…` that carries none of its digits.
 */
export const LOCAL_DECLINES: Readonly<Record<string, string>> = Object.freeze({
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
});

/**
 * Test numbers that are accepted when added but whose charges decline (Stripe's test card
 * 4000 0000 0000 0341 behaves so): the token says so (`tok_local_chargefail_…`), still without a
 * digit of the card.
 */
export const LOCAL_CHARGE_DECLINES: Readonly<Record<string, string>> = Object.freeze({
  '4000000000000341': 'Your card was declined.',
});

const CHARGE_FAIL_MARK = 'tok_local_chargefail_';

export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local';
  /** Every charge accepted, by idempotency key (a retried key answers the same charge). */
  readonly charges = new Map<string, ChargeInput & { id: string }>();
  constructor(private readonly clock: () => Date) {}

  async tokenize(card: CardInput): Promise<TokenizedCard> {
    const { number, month, year } = normalizeCard(card, this.clock());
    if (!luhnValid(number)) throw new InvalidError('card_number is not a valid card number (check digit)');
    const decline = LOCAL_DECLINES[number];
    if (decline) throw new CardDeclinedError(decline);
    const { randomBytes } = await import('node:crypto');
    const mark = LOCAL_CHARGE_DECLINES[number] ? CHARGE_FAIL_MARK : 'tok_local_';
    return { token: `${mark}${randomBytes(12).toString('hex')}`, brand: cardBrand(number), last4: number.slice(-4), exp_month: month, exp_year: year };
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const done = this.charges.get(input.idempotencyKey);
    if (done) return { id: done.id };
    if (input.token.startsWith(CHARGE_FAIL_MARK)) throw new CardDeclinedError(LOCAL_CHARGE_DECLINES['4000000000000341']);
    const { randomBytes } = await import('node:crypto');
    const id = `ch_local_${randomBytes(12).toString('hex')}`;
    this.charges.set(input.idempotencyKey, { ...input, id });
    return { id };
  }

  async detach(): Promise<void> {}
}

/**
 * The Stripe adapter: `POST {apiBase}/v1/payment_methods` (form-encoded `type=card`,
 * `card[number]`, `card[exp_month]`, `card[exp_year]`, `card[cvc]`) with the secret key as a
 * Bearer token, as Stripe's API takes it. Keeps the returned `pm_…` id, `card.brand`,
 * `card.last4`, `card.exp_month`, `card.exp_year`. A `card_error` answer (402) is a decline.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  constructor(
    private readonly stripe: { apiBase: string; secretKey: string },
    private readonly clock: () => Date,
  ) {}

  private async call(path: string, form: URLSearchParams, headers: Record<string, string> = {}): Promise<{ response: Response; answer: StripeAnswer }> {
    let response: Response;
    try {
      response = await fetch(`${this.stripe.apiBase}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'stripe-version': '2024-06-20', ...headers },
        body: form.toString(),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new ProviderUnavailableError('The payment provider could not be reached; try again');
    }
    return { response, answer: (await response.json().catch(() => ({}))) as StripeAnswer };
  }

  /**
   * `POST /v1/payment_intents` with `confirm=true` and `off_session=true` (the customer is not
   * there: the loop charges), the amount in cents, the currency in lower case and an
   * `Idempotency-Key` header, so a retried attempt never charges twice. `status: succeeded` is
   * paid; a `card_error` (402) is a decline; any other status (3-D Secure wanted) a failure.
   */
  async charge(input: ChargeInput): Promise<ChargeResult> {
    const form = new URLSearchParams({
      amount: input.amount.toString(),
      currency: input.currency.toLowerCase(),
      payment_method: input.token,
      confirm: 'true',
      off_session: 'true',
      description: input.description,
      'metadata[workspace_id]': input.metadata.workspace_id,
      'metadata[invoice_id]': input.metadata.invoice_id,
    });
    const { response, answer } = await this.call('/v1/payment_intents', form, { 'idempotency-key': input.idempotencyKey });
    if (!response.ok) {
      if (response.status === 402 || answer.error?.type === 'card_error') throw new CardDeclinedError(answer.error?.message ?? 'Your card was declined.');
      throw new ProviderUnavailableError(`The payment provider answered ${response.status}`);
    }
    if (!answer.id) throw new ProviderUnavailableError('The payment provider answered without a payment');
    if (answer.status !== 'succeeded') throw new CardDeclinedError(`The payment was not completed (${answer.status ?? 'unknown status'}): the card holder must confirm it`);
    return { id: answer.id };
  }

  /** `POST /v1/payment_methods/{id}/detach`; a method Stripe no longer knows (`resource_missing`) counts as detached. */
  async detach(token: string): Promise<void> {
    const { response, answer } = await this.call(`/v1/payment_methods/${encodeURIComponent(token)}/detach`, new URLSearchParams());
    if (response.ok || answer.error?.code === 'resource_missing' || answer.error?.code === 'payment_method_not_attached') return;
    throw new ProviderUnavailableError(`The payment provider answered ${response.status}`);
  }

  async tokenize(card: CardInput, customer: { workspaceId: string }): Promise<TokenizedCard> {
    const { number, month, year, cvv } = normalizeCard(card, this.clock());
    const body = new URLSearchParams({
      type: 'card',
      'card[number]': number,
      'card[exp_month]': String(month),
      'card[exp_year]': String(year),
      'card[cvc]': cvv,
      'metadata[workspace_id]': customer.workspaceId,
    });
    const { response, answer } = await this.call('/v1/payment_methods', body);
    if (!response.ok) {
      if (response.status === 402 || answer.error?.type === 'card_error') throw new CardDeclinedError(answer.error?.message ?? 'Your card was declined.');
      if (response.status === 400 && answer.error?.message) throw new InvalidError(answer.error.message);
      throw new ProviderUnavailableError(`The payment provider answered ${response.status}`);
    }
    if (!answer.id || !answer.card?.last4) throw new ProviderUnavailableError('The payment provider answered without a payment method');
    return { token: answer.id, brand: answer.card.brand ?? cardBrand(number), last4: answer.card.last4, exp_month: answer.card.exp_month ?? month, exp_year: answer.card.exp_year ?? year };
  }
}

interface StripeAnswer {
  id?: string;
  status?: string;
  card?: { brand?: string; last4?: string; exp_month?: number; exp_year?: number };
  error?: { type?: string; code?: string; message?: string };
}

/** The provider the configuration names. */
export function paymentProvider(config: BillingConfig, clock: () => Date): PaymentProvider {
  return config.provider === 'stripe' ? new StripePaymentProvider(config.stripe!, clock) : new LocalPaymentProvider(clock);
}
