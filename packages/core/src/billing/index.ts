export { billingRoutes } from './routes.js';
export { checkPlans, DEFAULT_PLANS, resolveBillingConfig, type BillingConfig, type BillingConfigInput, type PlanDefinition } from './config.js';
export { meteredLines, recordUsage, type MeteredLine } from './metering.js';
export { addMonths, formatAmount, parseAmount, roundHalfUp } from './money.js';
export { CardDeclinedError, cardBrand, LOCAL_DECLINES, LocalPaymentProvider, luhnValid, paymentProvider, StripePaymentProvider, type CardInput, type PaymentProvider, type TokenizedCard } from './providers.js';
export { BillingService, type CouponView, type InvoiceView, type PaymentMethodView, type RedemptionView, type SubscriptionView } from './service.js';
export { BILLING_QUEUE, BillingWorker } from './worker.js';
export { COUPON, COUPON_REDEMPTION, INVOICE, PAYMENT_METHOD, PAYMENT_METHOD_DELETED, SUBSCRIPTION, SUBSCRIPTION_CHANGE } from './answers.js';
