import { parseAmount } from './money.js';

/** One plan of the catalog: its id (what `PUT /plan` names), display name, seat prices and features. */
export interface PlanDefinition {
  id: string;
  name: string;
  /** Price of one seat for a month (monthly interval) and for a year (annual interval), exact decimals. */
  seat_price: { monthly: string; annual: string };
  features: string[];
}

/** `BILLING_*`, `PAYMENT_PROVIDER`, `STRIPE_*`: the plan catalog and the payment provider. */
export interface BillingConfig {
  /** ISO 4217 code every price and invoice is in (`BILLING_CURRENCY`, default USD). */
  currency: string;
  /** The catalog, cheapest first (`BILLING_PLANS`: a JSON array of PlanDefinition). Must hold `free`, the plan new workspaces start on. */
  plans: PlanDefinition[];
  /** Days from issue to due (`BILLING_NET_DAYS`, default 14). */
  netDays: number;
  /** Dunning: days from a failed charge to the next attempt, one number per retry (`BILLING_RETRY_DAYS`, default 3,5,7). */
  retryDays: number[];
  /** How often the billing worker looks for due loop firings, in ms (`BILLING_POLL_MS`, default 5000). */
  pollMs: number;
  /** Seconds a claimed firing may run before another process takes it over (`BILLING_CLAIM_SECONDS`, default 300). */
  claimSeconds: number;
  /** `local` (default: Luhn check, test cards) or `stripe` (`PAYMENT_PROVIDER`). */
  provider: 'local' | 'stripe';
  /** Stripe: `STRIPE_SECRET_KEY` (kept off JSON and logs) and `STRIPE_API_BASE` (default https://api.stripe.com). */
  stripe?: { apiBase: string; secretKey: string };
}

export type BillingConfigInput = Partial<Omit<BillingConfig, 'stripe'>> & { stripe?: { apiBase?: string; secretKey: string } };

/** The default catalog: a free plan and two paid ones; an annual seat costs ten months. */
export const DEFAULT_PLANS: PlanDefinition[] = [
  { id: 'free', name: 'Free', seat_price: { monthly: '0.00', annual: '0.00' }, features: ['Up to 3 apps', 'Community support'] },
  { id: 'team', name: 'Team', seat_price: { monthly: '8.00', annual: '80.00' }, features: ['Every app', 'API keys', 'E-mail support'] },
  { id: 'business', name: 'Business', seat_price: { monthly: '16.00', annual: '160.00' }, features: ['Every app', 'API keys', 'Audit exports', 'Priority support'] },
];

const PLAN_ID = /^[a-z][a-z0-9-]{0,39}$/;

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return number;
}

/** `BILLING_RETRY_DAYS`: 1-10 whole numbers of days, each 1-60, comma-separated (or an array). */
function retryDays(value: unknown): number[] {
  if (value === undefined || value === '') return [3, 5, 7];
  const parts = Array.isArray(value) ? value : String(value).split(',').map((part) => part.trim());
  const days = parts.map(Number);
  if (days.length < 1 || days.length > 10 || days.some((day) => !Number.isInteger(day) || day < 1 || day > 60)) {
    throw new Error(`BILLING_RETRY_DAYS must be 1-10 whole numbers of days from 1 to 60, comma-separated (e.g. 3,5,7), got ${JSON.stringify(value)}`);
  }
  return days;
}

/** Checks a catalog: ids, names, prices as exact non-negative decimals, a `free` plan, no duplicates. */
export function checkPlans(plans: unknown): PlanDefinition[] {
  if (!Array.isArray(plans) || plans.length === 0) throw new Error('BILLING_PLANS must be a non-empty JSON array of plans');
  const seen = new Set<string>();
  const checked = plans.map((plan: Partial<PlanDefinition>, index) => {
    const where = `BILLING_PLANS[${index}]`;
    if (typeof plan?.id !== 'string' || !PLAN_ID.test(plan.id)) throw new Error(`${where}.id must be 1-40 lower-case letters, digits and hyphens`);
    if (seen.has(plan.id)) throw new Error(`${where}.id ${plan.id} is listed twice`);
    seen.add(plan.id);
    if (typeof plan.name !== 'string' || plan.name.length < 1 || plan.name.length > 100) throw new Error(`${where}.name must be a string of 1-100 characters`);
    for (const interval of ['monthly', 'annual'] as const) {
      const price = plan.seat_price?.[interval];
      let cents: bigint | null;
      try {
        cents = typeof price === 'string' ? parseAmount(price) : null;
      } catch {
        cents = null;
      }
      if (cents === null || cents < 0n) throw new Error(`${where}.seat_price.${interval} must be a non-negative decimal string with at most two places, e.g. "8.00"`);
    }
    const features = plan.features ?? [];
    if (!Array.isArray(features) || features.some((feature) => typeof feature !== 'string')) throw new Error(`${where}.features must be an array of strings`);
    return { id: plan.id, name: plan.name, seat_price: { monthly: plan.seat_price!.monthly, annual: plan.seat_price!.annual }, features: [...features] };
  });
  if (!checked.some((plan) => plan.id === 'free')) throw new Error('BILLING_PLANS must hold a plan with id "free" (new workspaces start on it)');
  return checked;
}

/** Builds the billing configuration from explicit options, then the environment, then defaults. */
export function resolveBillingConfig(input: BillingConfigInput = {}, env: NodeJS.ProcessEnv = process.env): BillingConfig {
  const currency = input.currency ?? (env.BILLING_CURRENCY || 'USD');
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`BILLING_CURRENCY must be an ISO 4217 code such as USD, got ${JSON.stringify(currency)}`);
  let plans: unknown = input.plans ?? DEFAULT_PLANS;
  if (!input.plans && env.BILLING_PLANS) {
    try {
      plans = JSON.parse(env.BILLING_PLANS);
    } catch {
      throw new Error('BILLING_PLANS must be a JSON array of plans');
    }
  }
  const provider = input.provider ?? (env.PAYMENT_PROVIDER || 'local');
  if (provider !== 'local' && provider !== 'stripe') throw new Error(`PAYMENT_PROVIDER must be local or stripe, got ${JSON.stringify(provider)}`);
  const config: BillingConfig = {
    currency,
    plans: checkPlans(plans),
    netDays: integer('BILLING_NET_DAYS', input.netDays ?? env.BILLING_NET_DAYS, 14, 0, 365),
    retryDays: retryDays(input.retryDays ?? env.BILLING_RETRY_DAYS),
    pollMs: integer('BILLING_POLL_MS', input.pollMs ?? env.BILLING_POLL_MS, 5000, 10, 3_600_000),
    claimSeconds: integer('BILLING_CLAIM_SECONDS', input.claimSeconds ?? env.BILLING_CLAIM_SECONDS, 300, 1, 86_400),
    provider,
  };
  if (provider === 'stripe') {
    const secretKey = input.stripe?.secretKey ?? (env.STRIPE_SECRET_KEY || undefined);
    if (!secretKey || !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(secretKey)) throw new Error('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_… or sk_live_…) when PAYMENT_PROVIDER is stripe');
    const apiBase = (input.stripe?.apiBase ?? (env.STRIPE_API_BASE || 'https://api.stripe.com')).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/@]+$/.test(apiBase)) throw new Error('STRIPE_API_BASE must be an http(s) origin without a path, e.g. https://api.stripe.com');
    const stripe = { apiBase } as { apiBase: string; secretKey: string };
    // Off JSON.stringify, util.inspect and pino: the key never reaches a log.
    Object.defineProperty(stripe, 'secretKey', { value: secretKey, enumerable: false });
    config.stripe = stripe;
  }
  return config;
}
