import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The records the billing routes answer with (service.ts presents them). */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();
const amount = () => Joi.string().pattern(/^-?[0-9]+\.[0-9]{2}$/).description('An exact decimal amount with two places');

export const INVOICE: ObjectSchema = recordSchema({
  id: uuid(),
  number: Joi.number().integer().min(1),
  kind: Joi.string().valid('seats', 'usage'),
  plan: Joi.string(),
  billing_interval: Joi.string().valid('monthly', 'annual'),
  period_start: instant(),
  period_end: instant(),
  amount: amount(),
  currency: Joi.string(),
  status: Joi.string().valid('open', 'past_due', 'paid', 'void'),
  issued_at: instant(),
  due_at: instant(),
  attempt_count: Joi.number().integer().min(0),
  next_attempt_at: instant().allow(null),
  last_payment_error: Joi.string().allow(null),
  paid_at: instant().allow(null),
  lines: Joi.array().items(recordSchema({ description: Joi.string(), quantity: Joi.number().integer(), unit_amount: amount(), amount: amount() })),
}).id('Invoice');

const PLAN_FIELDS = {
  plan: Joi.string(),
  billing_interval: Joi.string().valid('monthly', 'annual'),
  currency: Joi.string(),
  seats: Joi.number().integer().min(0),
  seats_paid: Joi.number().integer().min(0).allow(null),
  period_start: instant().allow(null),
  period_end: instant().allow(null),
  next_run_at: instant().allow(null),
  loop: Joi.string().valid('monthly', 'usage').allow(null),
  billing_status: Joi.string().valid('current', 'past_due'),
  past_due_since: instant().allow(null),
  metered: recordSchema({
    since: instant(),
    amount: amount(),
    lines: Joi.array().items(recordSchema({ app: Joi.string(), meter: Joi.string(), microns: Joi.number().integer().min(1), amount: amount() })),
  }).description("Metered usage (apps' ctx.usage.record) the next billing run bills: recorded since `since`, per app and meter, each line's amount rounded half up to the cent"),
  plans: Joi.array().items(
    recordSchema({
      id: Joi.string(),
      name: Joi.string(),
      seat_price: recordSchema({ monthly: amount(), annual: amount() }),
      features: Joi.array().items(Joi.string()),
      current: Joi.boolean(),
    }),
  ),
};

export const SUBSCRIPTION: ObjectSchema = recordSchema(PLAN_FIELDS).id('Subscription');

/** `PUT /plan` and `PUT /plan/interval`: the subscription after the change and the invoice it issued (null: none). */
export const SUBSCRIPTION_CHANGE: ObjectSchema = recordSchema({ ...PLAN_FIELDS, invoice: INVOICE.allow(null) }).id('SubscriptionChange');

export const PAYMENT_METHOD: ObjectSchema = recordSchema({
  id: uuid(),
  provider: Joi.string(),
  brand: Joi.string(),
  last4: Joi.string().length(4),
  exp_month: Joi.number().integer().min(1).max(12),
  exp_year: Joi.number().integer(),
  is_default: Joi.boolean(),
  created_at: instant(),
}).id('PaymentMethod');

export const PAYMENT_METHOD_DELETED: ObjectSchema = recordSchema({
  id: uuid(),
  brand: Joi.string(),
  last4: Joi.string().length(4),
  deleted: Joi.boolean().valid(true),
  default_id: uuid().allow(null).description('The default card after the removal (null: no card left)'),
}).id('PaymentMethodDeleted');

/** Coupons operators make (`/v/admin/coupons`) and give to workspaces (redemptions). */
export const COUPON: ObjectSchema = recordSchema({
  id: uuid(),
  code: Joi.string(),
  percent_off: Joi.number().integer().min(1).max(100).allow(null),
  amount_off: Joi.string().allow(null).description('An exact decimal amount, e.g. "5.00"'),
  currency: Joi.string().allow(null),
  description: Joi.string().allow(''),
  created_at: instant(),
}).id('Coupon');

export const COUPON_REDEMPTION: ObjectSchema = recordSchema({
  id: uuid(),
  workspace_id: uuid(),
  coupon: recordSchema({ id: uuid(), code: Joi.string() }),
  status: Joi.string().valid('pending', 'applied'),
  invoice_id: uuid().allow(null),
  discount: Joi.string().allow(null),
  created_at: instant(),
  applied_at: instant().allow(null),
}).id('CouponRedemption');
