import type { Request, ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import { requireRole } from '../access/index.js';
import { collection, parsePagination, single } from '../server/index.js';
import { COUPON_REDEMPTION, INVOICE, PAYMENT_METHOD, PAYMENT_METHOD_DELETED, SUBSCRIPTION, SUBSCRIPTION_CHANGE } from './answers.js';
import type { CardInput } from './providers.js';
import type { BillingService, Interval } from './service.js';

const MANAGE = 'manage billing';

/** The billing endpoints: every one is for the workspace owner only (admins and members get 403). */
export function billingRoutes(billing: BillingService): ServerRoute[] {
  const owner = (request: Request) => requireRole(request, 'owner', MANAGE);
  const workspaceId = (request: Request) => request.app.workspace!.id;
  const access = { platformAccess: 'account.billing_accounts.read' as const };
  const manage = { platformAccess: 'account.billing_accounts.manage' as const };
  return [
    {
      method: 'GET',
      path: '/plan',
      options: { app: { ...access, answers: { single: SUBSCRIPTION } } },
      handler: async (request) => {
        owner(request);
        return single(request, await billing.subscription(workspaceId(request)));
      },
    },
    {
      method: 'PUT',
      path: '/plan',
      options: { app: { ...manage, answers: { single: SUBSCRIPTION_CHANGE } }, validate: { payload: Joi.object({ plan: Joi.string().trim().min(1).max(40).required() }).required() } },
      handler: async (request) => {
        owner(request);
        const { subscription, invoice } = await billing.changePlan(workspaceId(request), (request.payload as { plan: string }).plan);
        return single(request, { ...subscription, invoice });
      },
    },
    {
      method: 'PUT',
      path: '/plan/interval',
      options: { app: { ...manage, answers: { single: SUBSCRIPTION_CHANGE } }, validate: { payload: Joi.object({ billing_interval: Joi.string().valid('monthly', 'annual').required() }).required() } },
      handler: async (request) => {
        owner(request);
        const { subscription, invoice } = await billing.changeInterval(workspaceId(request), (request.payload as { billing_interval: Interval }).billing_interval);
        return single(request, { ...subscription, invoice });
      },
    },
    {
      method: 'GET',
      path: '/invoices',
      options: { app: { ...access, answers: { collection: INVOICE } } },
      handler: async (request) => {
        owner(request);
        const page = parsePagination(request.query);
        const { rows, total } = await billing.invoices(workspaceId(request), page);
        return collection(request, rows, total, page);
      },
    },
    {
      method: 'GET',
      path: '/invoices/{invoice_id}',
      options: { app: { ...access, answers: { single: INVOICE } }, validate: { params: Joi.object({ invoice_id: Joi.id().required() }) } },
      handler: async (request) => {
        owner(request);
        return single(request, await billing.invoice(workspaceId(request), request.params.invoice_id as string));
      },
    },
    {
      // The workspace's coupons: pending ones apply to the next invoice above zero (operators give them).
      method: 'GET',
      path: '/coupon-redemptions',
      options: { app: { ...access, answers: { collection: COUPON_REDEMPTION } } },
      handler: async (request) => {
        owner(request);
        const rows = await billing.redemptions({ workspaceId: workspaceId(request) });
        return collection(request, rows, rows.length, { page: 1, perPage: Math.max(rows.length, 1), offset: 0, limit: Math.max(rows.length, 1) });
      },
    },
    {
      method: 'GET',
      path: '/payment-methods',
      options: { app: { ...access, answers: { collection: PAYMENT_METHOD } } },
      handler: async (request) => {
        owner(request);
        const rows = await billing.paymentMethods(workspaceId(request));
        return collection(request, rows, rows.length, { page: 1, perPage: Math.max(rows.length, 1), offset: 0, limit: Math.max(rows.length, 1) });
      },
    },
    {
      method: 'POST',
      path: '/payment-methods',
      options: {
        app: { ...manage, answers: { single: PAYMENT_METHOD }, wpk: { errors: ['402', '502'] } },
        // Lengths only: a joi pattern message would quote the value, and the number must not reach an answer or a log.
        validate: {
          payload: Joi.object({
            card_number: Joi.string().min(13).max(19).required(),
            expiry_month: Joi.string().min(1).max(2).required(),
            expiry_year: Joi.string().min(2).max(4).required(),
            cvv: Joi.string().min(3).max(4).required(),
          }).required(),
        },
      },
      handler: async (request) => {
        const actor = owner(request);
        const method = await billing.addPaymentMethod(workspaceId(request), actor.id, request.payload as CardInput);
        return single(request, method, { self: `/payment-methods/${method.id}` });
      },
    },
    {
      // Chooses the default card (the one invoices are charged to): only `is_default: true`.
      method: 'PATCH',
      path: '/payment-methods/{payment_method_id}',
      options: {
        app: { ...manage, answers: { single: PAYMENT_METHOD } },
        validate: {
          params: Joi.object({ payment_method_id: Joi.id().required() }),
          payload: Joi.object({ is_default: Joi.boolean().valid(true).required().messages({ 'any.only': 'is_default can only be set to true: choose another card as the default instead' }) }).required(),
        },
      },
      handler: async (request) => {
        owner(request);
        const method = await billing.makeDefault(workspaceId(request), request.params.payment_method_id as string);
        return single(request, method, { self: `/payment-methods/${method.id}` });
      },
    },
    {
      method: 'DELETE',
      path: '/payment-methods/{payment_method_id}',
      options: { app: { ...manage, answers: { single: PAYMENT_METHOD_DELETED }, wpk: { errors: ['502'] } }, validate: { params: Joi.object({ payment_method_id: Joi.id().required() }) } },
      handler: async (request) => {
        owner(request);
        const { removed, default_id } = await billing.removePaymentMethod(workspaceId(request), request.params.payment_method_id as string);
        return single(request, { id: removed.id, brand: removed.brand, last4: removed.last4, deleted: true, default_id });
      },
    },
  ];
}
