import type { Request, ServerRoute } from '@hapi/hapi';
import { Joi, UnauthorizedError } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';
import type { Logger } from 'pino';
import { requireRole } from '../access/index.js';
import type { Mailer } from '../mail/index.js';
import { parsePagination } from '../server/index.js';
import { COUPON, COUPON_REDEMPTION } from '../billing/index.js';
import { ADOPTED_PREVIEW, ADOPTER, DELETED_ADOPTER, DELETED_BY_ID, DEMO_REQUEST, PREVIEW_APP, RELEASE_NOTE } from './answers.js';
import type { BillingService } from '../billing/index.js';
import type { MessagesService } from '../messages/index.js';
import { collection, single } from '../server/index.js';
import type { OperatorService, OperatorView } from './service.js';

const all = <T>(request: Request, rows: T[]) => collection(request, rows, rows.length, { page: 1, perPage: Math.max(1, rows.length), offset: 0, limit: Math.max(1, rows.length) });
const version = Joi.string().trim().pattern(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/).messages({ 'string.pattern.base': 'version must be 1-40 letters, digits, dots, plus signs and hyphens, e.g. 1.4.0' });
const slug = Joi.string().trim().pattern(/^[a-z][a-z0-9-]{0,63}$/).messages({ 'string.pattern.base': 'slug must be 1-64 lower-case letters, digits and hyphens, starting with a letter' });

/**
 * Operator admin under `/v/admin/…` (docs/operators.md), on the base domain only, for the people
 * who run the platform: `Authorization: Bearer wpo_…` (an operator credential made by
 * `wpk operator add`); anything else is 401. No workspace credential is accepted here.
 */
export function operatorRoutes(deps: { operators: OperatorService; billing: BillingService; messages: MessagesService; clock: () => Date }): ServerRoute[] {
  const { operators, billing, messages, clock } = deps;
  const operator = async (request: Request): Promise<OperatorView> => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(String(header));
    const found = match ? await operators.authenticate(match[1]) : null;
    if (!found) throw new UnauthorizedError('Operator credential required (Authorization: Bearer wpo_…, made by wpk operator add)');
    return found;
  };
  const options = (answers: { single: ObjectSchema } | { collection: ObjectSchema }, validate: Record<string, unknown> = {}) => ({ auth: false as const, app: { wpk: { scope: 'platform' as const }, answers }, validate });
  return [
    {
      method: 'GET',
      path: '/v/admin/versions/{version}/notes',
      options: options({ collection: RELEASE_NOTE }, { params: Joi.object({ version: version.required() }) }),
      handler: async (request) => {
        await operator(request);
        return all(request, await messages.releaseNotes(request.params.version as string));
      },
    },
    {
      method: 'POST',
      path: '/v/admin/versions/{version}/notes',
      options: options({ single: RELEASE_NOTE }, { params: Joi.object({ version: version.required() }), payload: Joi.object({ title: Joi.string().trim().min(1).max(200).required(), body: Joi.string().trim().min(1).max(10000).required() }).required() }),
      handler: async (request) => {
        await operator(request);
        const { title, body } = request.payload as { title: string; body: string };
        const note = await messages.addReleaseNote(request.params.version as string, title, body, clock());
        return single(request, note, { self: `/v/admin/versions/${encodeURIComponent(note.version)}/notes/${note.id}` });
      },
    },
    {
      method: 'DELETE',
      path: '/v/admin/versions/{version}/notes/{note_id}',
      options: options({ single: DELETED_BY_ID }, { params: Joi.object({ version: version.required(), note_id: Joi.id().required() }) }),
      handler: async (request) => {
        await operator(request);
        await messages.deleteReleaseNote(request.params.version as string, request.params.note_id as string);
        return single(request, { id: request.params.note_id as string, deleted: true });
      },
    },
    {
      method: 'GET',
      path: '/v/admin/coupons',
      options: options({ collection: COUPON }),
      handler: async (request) => {
        await operator(request);
        return all(request, await billing.coupons());
      },
    },
    {
      method: 'POST',
      path: '/v/admin/coupons',
      options: options({ single: COUPON }, {
        payload: Joi.object({
          code: Joi.string().trim().pattern(/^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/).required().messages({ 'string.pattern.base': 'code must be 3-40 letters, digits, hyphens and underscores' }),
          percent_off: Joi.number().integer().min(1).max(100),
          amount_off: Joi.string().trim().max(16),
          description: Joi.string().trim().max(200).allow(''),
        }).required(),
      }),
      handler: async (request) => {
        await operator(request);
        return single(request, await billing.createCoupon(request.payload as { code: string }));
      },
    },
    {
      method: 'GET',
      path: '/v/admin/coupon-redemptions',
      options: options({ collection: COUPON_REDEMPTION }),
      handler: async (request) => {
        await operator(request);
        return all(request, await billing.redemptions());
      },
    },
    {
      method: 'POST',
      path: '/v/admin/coupon-redemptions',
      options: options({ single: COUPON_REDEMPTION }, { payload: Joi.object({ coupon_id: Joi.id().required(), workspace_id: Joi.id().required() }).required() }),
      handler: async (request) => {
        await operator(request);
        const { coupon_id, workspace_id } = request.payload as { coupon_id: string; workspace_id: string };
        const redemption = await billing.redeem(coupon_id, workspace_id);
        return single(request, redemption, { self: `/v/admin/coupon-redemptions/${redemption.id}` });
      },
    },
    {
      method: 'DELETE',
      path: '/v/admin/coupon-redemptions/{id}',
      options: options({ single: DELETED_BY_ID }, { params: Joi.object({ id: Joi.id().required() }) }),
      handler: async (request) => {
        await operator(request);
        await billing.deleteRedemption(request.params.id as string);
        return single(request, { id: request.params.id as string, deleted: true });
      },
    },
    {
      method: 'GET',
      path: '/v/admin/preview-apps',
      options: options({ collection: PREVIEW_APP }),
      handler: async (request) => {
        await operator(request);
        return all(request, await operators.previewApps());
      },
    },
    {
      method: 'POST',
      path: '/v/admin/preview-apps',
      options: options({ single: PREVIEW_APP }, { payload: Joi.object({ slug: slug.required(), name: Joi.string().trim().min(1).max(100).required(), description: Joi.string().trim().max(500).allow('') }).required() }),
      handler: async (request) => {
        await operator(request);
        return single(request, await operators.createPreviewApp(request.payload as { slug: string; name: string }));
      },
    },
    {
      method: 'GET',
      path: '/v/admin/preview-apps/{slug}/adopters',
      options: options({ collection: ADOPTER }, { params: Joi.object({ slug: slug.required() }) }),
      handler: async (request) => {
        await operator(request);
        return all(request, await operators.adopters(request.params.slug as string));
      },
    },
    {
      method: 'POST',
      path: '/v/admin/preview-apps/{slug}/adopters',
      options: options({ single: ADOPTER }, { params: Joi.object({ slug: slug.required() }), payload: Joi.object({ workspace_id: Joi.id().required() }).required() }),
      handler: async (request) => {
        await operator(request);
        return single(request, await operators.adopt(request.params.slug as string, (request.payload as { workspace_id: string }).workspace_id));
      },
    },
    {
      method: 'DELETE',
      path: '/v/admin/preview-apps/{slug}/adopters/{workspace_id}',
      options: options({ single: DELETED_ADOPTER }, { params: Joi.object({ slug: slug.required(), workspace_id: Joi.id().required() }) }),
      handler: async (request) => {
        await operator(request);
        await operators.removeAdopter(request.params.slug as string, request.params.workspace_id as string);
        return single(request, { slug: request.params.slug as string, workspace_id: request.params.workspace_id as string, deleted: true });
      },
    },
  ];
}

/**
 * The workspace's side of what operators run (owners and admins): the preview apps it was let
 * into (`GET /preview-apps`) and its demo requests (`GET`/`POST /demo-requests`; a request is
 * mailed to the operator, as the site's demo form is).
 */
export function workspaceOperatorRoutes(deps: { operators: OperatorService; mailer: Mailer; operatorAddress: string; logger: Logger }): ServerRoute[] {
  const { operators, mailer, operatorAddress, logger } = deps;
  const workspaceId = (request: Request) => request.app.workspace!.id;
  return [
    {
      method: 'GET',
      path: '/preview-apps',
      options: { app: { platformAccess: 'account.preview_apps.read', answers: { collection: ADOPTED_PREVIEW } } },
      handler: async (request) => {
        requireRole(request, 'admin', 'see the preview apps');
        return all(request, await operators.adoptedBy(workspaceId(request)));
      },
    },
    {
      method: 'GET',
      path: '/demo-requests',
      options: { app: { platformAccess: 'account.demo_requests.read', answers: { collection: DEMO_REQUEST } } },
      handler: async (request) => {
        requireRole(request, 'admin', 'read demo requests');
        const page = parsePagination(request.query);
        const { rows, total } = await operators.demoRequests(workspaceId(request), page);
        return collection(request, rows, total, page);
      },
    },
    {
      method: 'POST',
      path: '/demo-requests',
      options: {
        app: { platformAccess: 'account.demo_requests.create', answers: { single: DEMO_REQUEST } },
        validate: { payload: Joi.object({ message: Joi.string().trim().min(1).max(5000).required() }).required() },
      },
      handler: async (request) => {
        const member = requireRole(request, 'admin', 'ask for a demo');
        const workspace = request.app.workspace!;
        const demo = await operators.requestDemo(workspace.id, member.id, (request.payload as { message: string }).message);
        // Best effort after the row is stored: the request is listed even when the mail fails.
        await mailer
          .send({ to: operatorAddress, subject: `Demo request from ${workspace.name} (${workspace.subdomain})`, text: `From: ${demo.name} <${demo.email}>, ${workspace.subdomain}\n\n${demo.message}\n` })
          .catch((error: Error) => logger.error({ err: error, workspace_id: workspace.id }, 'demo request mail failed'));
        return single(request, demo, { self: `/demo-requests/${demo.id}` });
      },
    },
  ];
}
