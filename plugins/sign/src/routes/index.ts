import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { ENVELOPE_STATUSES, FIELD_TYPES, MARK_KINDS, ROLES, type AuditEvent, type Envelope, type Template } from '../models/index.js';
import { clientOf } from '../services/audit.js';
import { currentCertificate, MAX_P12_BYTES, resetCertificate, uploadCertificate } from '../services/certificates.js';
import { MAX_DOCUMENT_BYTES } from '../services/documents.js';
import {
  auditOf, createEnvelope, declineAsMember, declineWithToken, deleteEnvelope, fileOf, listEnvelopes, presentEnvelope, recipientsOf, sendCode, sendEnvelope,
  signAsMember, signingDocument, signingPage, signWithToken, updateEnvelope, viewAsMember, voidEnvelope,
} from '../services/envelopes.js';
import { createTemplate, deleteTemplate, presentTemplate, requireTemplate, updateTemplate } from '../services/templates.js';
import { verify } from '../services/verifications.js';
import { AUDIT, CERTIFICATE, CODE_SENT, DELETED, ENVELOPE, SIGNED, SIGNING_PAGE, TEMPLATE, VERIFICATION } from './answers.js';

const base64 = () => Joi.string().max(Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 4).pattern(/^[A-Za-z0-9+/]*={0,2}$/);
const document = Joi.object({
  filename: Joi.string().trim().min(1).max(255).required(),
  content_type: Joi.string().valid('application/pdf'),
  sha256: Joi.string().lowercase().pattern(/^[0-9a-f]{64}$/),
  data_base64: base64().required(),
});
const fraction = () => Joi.number().min(0).max(1);
const fieldKeys = {
  type: Joi.string().valid(...FIELD_TYPES).required(),
  page: Joi.number().integer().min(1).max(1000).required(),
  x: fraction().required(),
  y: fraction().required(),
  width: fraction().greater(0).required(),
  height: fraction().greater(0).required(),
  label: Joi.string().trim().max(200).allow(null, ''),
  required: Joi.boolean(),
};
const recipient = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  email: Joi.string().trim().email({ tlds: false }).max(254).required(),
  member_id: Joi.memberId().allow(null),
  role: Joi.string().valid(...ROLES),
  group: Joi.number().integer().min(1).max(50),
  fields: Joi.array().max(200).items(Joi.object({ ...fieldKeys, value: Joi.alternatives(Joi.string().max(1000), Joi.boolean()).allow(null) })),
});
const envelopeKeys = {
  title: Joi.string().trim().min(1).max(200),
  message: Joi.string().max(4000).allow(''),
  recipients: Joi.array().max(50).items(recipient),
  expires_at: Joi.instant().allow(null),
  reminder_days: Joi.number().integer().min(0).max(60).allow(null),
};
const mark = Joi.object({
  kind: Joi.string().valid(...MARK_KINDS).required(),
  text: Joi.string().trim().min(1).max(200),
  image: Joi.string().max(700_000).pattern(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/),
});
const signPayload = { signature: mark, values: Joi.object().pattern(Joi.string().max(100), Joi.alternatives(Joi.string().max(1000), Joi.boolean())).max(200) };
const reason = Joi.string().trim().min(1).max(1000).required();
const code = Joi.string().pattern(/^[0-9]{6}$/).required();
const templateKeys = {
  name: Joi.string().trim().min(1).max(200),
  description: Joi.string().max(2000).allow(''),
  document,
  roles: Joi.array().min(1).max(20).items(Joi.string().trim().min(1).max(100)),
  fields: Joi.array().max(500).items(Joi.object({ ...fieldKeys, role: Joi.string().trim().min(1).max(100).required(), merge_key: Joi.string().trim().min(1).max(100).pattern(/^[A-Za-z0-9_.-]+$/).allow(null) })),
};

const templates = routeFamily('/sign/templates', { record: TEMPLATE, present: (template: Template) => presentTemplate(template), links: (template) => ({ self: `/sign/templates/${template.id}` }) });
const template = templates.at('/{template_id}', { params: Joi.idParams('template_id') });

const envelopes = routeFamily('/sign/envelopes', { record: ENVELOPE, present: async (envelope: Envelope, ctx) => presentEnvelope(ctx, envelope, await recipientsOf(ctx, envelope.id)), links: (envelope) => ({ self: `/sign/envelopes/${envelope.id}` }) });
const envelope = envelopes.at('/{envelope_id}', { params: Joi.idParams('envelope_id') });
const recipientAt = envelope.at('/recipients/{recipient_id}', { params: Joi.idParams('envelope_id', 'recipient_id') });

const tokenParams = Joi.object({ token: Joi.string().min(20).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() });
const perLink = (name: string, limit: number) => ({ name, per: 'param:token' as const, limit, windowSeconds: 3600, message: 'Too many attempts on this link; try again later' });
const perClient = (name: string, limit: number) => ({ name, per: 'client' as const, limit, windowSeconds: 3600, message: 'Too many attempts from your address; try again later' });

/** Every route of the app. */
export const routes = [
  templates.list({
    chain: ['sign.templates.read'],
    description: 'Lists templates by name',
    query: Joi.listQuery({ q: Joi.string().max(200).allow('') }),
    run: async (request, ctx) => {
      const q = String(request.query.q ?? '').toLowerCase();
      const all = (await ctx.db.templates.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] })).filter((one) => one.name.toLowerCase().includes(q));
      return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length };
    },
  }),
  templates.post({
    chain: ['sign.templates.manage'],
    description: 'Adds a template: a PDF, its roles in signing order, and fields per role (signature, initials, date, text, checkbox); a text field with merge_key is filled from an envelope\'s merge values',
    payload: Joi.object({ ...templateKeys, name: templateKeys.name.required(), document: document.required(), roles: templateKeys.roles.required() }),
    run: (request, ctx) => createTemplate(ctx, request.payload),
  }),
  template.get({ chain: ['sign.templates.read'], description: 'Reads a template', run: (request, ctx) => requireTemplate(ctx, request.params.template_id) }),
  template.patch({
    chain: ['sign.templates.manage'],
    description: 'Changes a template: name, description, document, roles, fields (replaced whole)',
    payload: Joi.object(templateKeys).min(1),
    run: (request, ctx) => updateTemplate(ctx, request.params.template_id, request.payload),
  }),
  template.delete({ chain: ['sign.templates.manage'], answers: { single: DELETED }, description: 'Deletes a template (envelopes made from it keep their copy)', run: (request, ctx) => deleteTemplate(ctx, request.params.template_id) }),

  envelopes.list({
    chain: ['sign.envelopes.read'],
    description: 'Lists the envelopes the caller sends or is an internal recipient of (every one with sign.envelopes.manage), newest first',
    query: Joi.listQuery({ status: Joi.string().valid(...ENVELOPE_STATUSES), q: Joi.string().max(200).allow(''), source_mrn: Joi.string().max(300) }),
    handler: async (request, ctx) => {
      const { rows, count } = await listEnvelopes(ctx, request.query as never);
      return ctx.respond.collection(rows, count);
    },
  }),
  envelopes.post({
    chain: ['sign.envelopes.create'],
    description: 'Prepares a draft envelope: a PDF (or a template and its merge values), recipients (signer, approver, copy) in ordered groups, and each signer\'s fields',
    payload: Joi.object({ ...envelopeKeys, title: envelopeKeys.title.required(), source_mrn: Joi.string().trim().min(1).max(300).pattern(/^mrn:[a-z0-9_-]+:[a-z0-9_-]+:\S+$/), document, template_id: Joi.id(), merge_values: Joi.object().pattern(Joi.string().max(100), Joi.string().max(1000)).max(100) }),
    run: (request, ctx) => createEnvelope(ctx, request.payload, clientOf(request)),
  }),
  envelope.get({
    chain: ['sign.envelopes.read'],
    description: 'Reads an envelope with its recipients (the first read by an internal recipient on their turn marks them viewed)',
    handler: async (request, ctx) => {
      const { envelope: row, recipients } = await viewAsMember(ctx, request.params.envelope_id, clientOf(request));
      return ctx.respond.single(presentEnvelope(ctx, row, recipients));
    },
  }),
  envelope.patch({
    chain: ['sign.envelopes.create'],
    description: 'Changes a draft: title, message, expiry, reminders, recipients with their fields (replaced whole)',
    payload: Joi.object(envelopeKeys).min(1),
    run: (request, ctx) => updateEnvelope(ctx, request.params.envelope_id, request.payload, clientOf(request)),
  }),
  envelope.delete({ chain: ['sign.envelopes.create'], answers: { single: DELETED }, description: 'Deletes a draft', run: (request, ctx) => deleteEnvelope(ctx, request.params.envelope_id) }),
  envelope.at('/send').post({
    chain: ['sign.envelopes.create'],
    description: 'Sends a draft: external recipients get a link, the first group is notified; expiry and reminders are scheduled',
    payload: Joi.object({}),
    run: (request, ctx) => sendEnvelope(ctx, request.params.envelope_id, clientOf(request)),
  }),
  envelope.at('/void').post({
    chain: ['sign.envelopes.create'],
    description: 'Voids a draft or sent envelope, with a reason',
    payload: Joi.object({ reason }),
    run: (request, ctx) => voidEnvelope(ctx, request.params.envelope_id, request.payload.reason, clientOf(request)),
  }),
  envelope.at('/audit', { record: AUDIT, present: (row: AuditEvent) => ({ id: row.id, envelope_id: row.envelope_id, recipient_id: row.recipient_id, action: row.action, actor: row.actor, ip: row.ip, user_agent: row.user_agent, details: row.details, at: row.at }) }).list({
    chain: ['sign.envelopes.read'],
    description: 'The envelope\'s audit trail, oldest first: every step with its time, IP address and user agent',
    query: Joi.listQuery(),
    run: async (request, ctx) => {
      const all = await auditOf(ctx, request.params.envelope_id);
      return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length };
    },
  }),
  route({
    method: 'GET',
    path: '/sign/envelopes/{envelope_id}/document',
    chain: ['sign.envelopes.read'],
    answers: { file: 'application/pdf' },
    description: 'The envelope\'s PDF: the original, or (version=final) the completed, sealed file',
    validate: { params: Joi.idParams('envelope_id'), query: Joi.object({ version: Joi.string().valid('original', 'final').default('original') }) },
    async handler(request, ctx) {
      const file = await fileOf(ctx, request.params.envelope_id, request.query.version as 'original' | 'final');
      return ctx.respond.file(file.bytes, { contentType: 'application/pdf', filename: file.filename });
    },
  }),
  recipientAt.at('/sign').post({
    chain: ['sign.envelopes.sign'],
    description: 'The internal recipient signs (or approves) as themselves, on their group\'s turn: a signature (drawn, typed or uploaded) and their fields\' values',
    payload: Joi.object(signPayload),
    run: (request, ctx) => signAsMember(ctx, request.params.envelope_id, request.params.recipient_id, request.payload, clientOf(request)),
  }),
  recipientAt.at('/decline').post({
    chain: ['sign.envelopes.sign'],
    description: 'The internal recipient declines, with a reason: the envelope ends',
    payload: Joi.object({ reason }),
    run: (request, ctx) => declineAsMember(ctx, request.params.envelope_id, request.params.recipient_id, request.payload.reason, clientOf(request)),
  }),

  route({
    method: 'POST',
    path: '/sign/verifications',
    chain: ['sign.verifications.create'],
    answers: { single: VERIFICATION },
    description: 'Says whether an uploaded file is one this workspace completed, unaltered',
    validate: { payload: Joi.object({ filename: Joi.string().max(255), data_base64: base64().required() }) },
    handler: async (request, ctx) => ctx.respond.single(await verify(ctx, request.payload)),
  }),

  route({
    method: 'GET',
    path: '/sign/certificate',
    chain: [{ any_of: ['sign.certificates.read', 'sign.certificates.manage'], message: 'Missing permission: sign.certificates.read' }],
    answers: { single: CERTIFICATE },
    description: 'The certificate the workspace signs completed envelopes with now: generated or uploaded, its subject, issuer, serial, validity, fingerprint and chain length (never its key)',
    handler: async (_request, ctx) => ctx.respond.single(await currentCertificate(ctx)),
  }),
  route({
    method: 'PUT',
    path: '/sign/certificate',
    chain: ['sign.certificates.manage'],
    answers: { single: CERTIFICATE },
    description: 'Replaces the signing certificate with a PKCS#12 file (base64) and its passphrase: an RSA key, its certificate valid now and allowed to sign, and its chain; envelopes completed from now on are signed with it',
    validate: { payload: Joi.object({ p12: Joi.string().max(Math.ceil((MAX_P12_BYTES * 4) / 3) + 1000).required(), passphrase: Joi.string().max(1000).allow('').required() }) },
    handler: async (request, ctx) => ctx.respond.single(await uploadCertificate(ctx, request.payload)),
  }),
  route({
    method: 'DELETE',
    path: '/sign/certificate',
    chain: ['sign.certificates.manage'],
    answers: { single: CERTIFICATE },
    description: 'Goes back to the workspace\'s generated self-signed certificate: the uploaded key is deleted (409 when none is uploaded)',
    handler: async (_request, ctx) => ctx.respond.single(await resetCertificate(ctx)),
  }),

  publicRoute({
    method: 'POST',
    path: '/sign/signing/{token}',
    answers: { single: SIGNING_PAGE },
    description: 'Opens the external signer\'s link: what to sign, and the first opening marks them viewed (409 until their group\'s turn)',
    validate: { params: tokenParams },
    handler: async (request, ctx) => ctx.respond.single(await signingPage(ctx, request.params.token, clientOf(request))),
  }),
  publicRoute({
    method: 'POST',
    path: '/sign/signing/{token}/document',
    answers: { file: 'application/pdf' },
    description: 'The document behind an external signer\'s link, on their turn (409 before)',
    validate: { params: tokenParams, payload: Joi.object({}) },
    handler: async (request, ctx) => {
      const file = await signingDocument(ctx, request.params.token);
      return ctx.respond.file(file.bytes, { contentType: 'application/pdf', filename: file.filename });
    },
  }),
  publicRoute({
    method: 'POST',
    path: '/sign/signing/{token}/code',
    answers: { single: CODE_SENT },
    description: 'Mails the external signer a one-time code (valid ten minutes)',
    rateLimits: [perLink('code-link', 5), perClient('code-client', 30)],
    validate: { params: tokenParams, payload: Joi.object({}) },
    handler: async (request, ctx) => ctx.respond.single(await sendCode(ctx, request.params.token, clientOf(request))),
  }),
  publicRoute({
    method: 'POST',
    path: '/sign/signing/{token}/sign',
    answers: { single: SIGNED },
    description: 'The external signer signs with the mailed code: a signature (drawn, typed or uploaded) and their fields\' values',
    rateLimits: [perLink('sign-link', 10), perClient('sign-client', 60)],
    validate: { params: tokenParams, payload: Joi.object({ ...signPayload, code }) },
    handler: async (request, ctx) => ctx.respond.single(await signWithToken(ctx, request.params.token, request.payload, clientOf(request))),
  }),
  publicRoute({
    method: 'POST',
    path: '/sign/signing/{token}/decline',
    answers: { single: SIGNED },
    description: 'The external signer declines with the mailed code and a reason',
    rateLimits: [perLink('decline-link', 10), perClient('decline-client', 60)],
    validate: { params: tokenParams, payload: Joi.object({ code, reason }) },
    handler: async (request, ctx) => ctx.respond.single(await declineWithToken(ctx, request.params.token, request.payload, clientOf(request))),
  }),
];
