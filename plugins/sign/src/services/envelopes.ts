import { createHash, randomBytes, randomInt } from 'node:crypto';
import { ConflictError, ForbiddenError, formatMrn, InvalidError, NotFoundError, newId, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Envelope, Field, FieldType, Mark, Recipient, Role } from '../models/index.js';
import { audit, SYSTEM, trail, type Client } from './audit.js';
import { identityOf } from './certificates.js';
import { readDocument, readStored, type DocumentInput } from './documents.js';
import { envelopeMachine, recipientMachine } from './machine.js';
import { appendCertificate, drawableImage, flatten, openPdf, sealPdf, sha256, type PlacedField } from './pdf.js';

/** The permission that sees and manages every envelope. */
export const MANAGE = 'sign.envelopes.manage';

/** A field as the API takes it. */
export interface FieldInput {
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string | null;
  value?: string | boolean | null;
  required?: boolean;
  merge_key?: string | null;
}

/** A recipient as the API takes it. */
export interface RecipientInput {
  name: string;
  email: string;
  member_id?: string | null;
  role?: Role;
  group?: number;
  fields?: FieldInput[];
}

/** What a create takes. */
export interface EnvelopeInput {
  title: string;
  message?: string;
  source_mrn?: string;
  document?: DocumentInput;
  template_id?: string;
  merge_values?: Record<string, string>;
  recipients?: RecipientInput[];
  expires_at?: string | null;
  reminder_days?: number | null;
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex');
const mrnOf = (envelope: Envelope): string => formatMrn('sign', 'envelope', envelope.id);
const who = (recipient: Recipient): string => `${recipient.name} <${recipient.email}>`;

/** The envelope's search document. */
export function envelopeDocument(envelope: Envelope): SearchDocument {
  return { type: 'envelope', id: envelope.id, title: envelope.title, subtitle: envelope.status, url: `/envelopes/${envelope.id}`, names: [envelope.title], details: [], filters: { status: envelope.status } };
}

/** Recipients of an envelope in signing order. */
export function recipientsOf(ctx: AnyCtx, envelopeId: string, lock?: 'update'): Promise<Recipient[]> {
  return ctx.db.recipients.findAll({ where: { envelope_id: envelopeId }, order: [['group_no', 'ASC'], ['position', 'ASC']], ...(lock ? { lock } : {}) });
}

/** May the caller see this envelope: its owner, one of its internal recipients, or a holder of sign.envelopes.manage. */
function sees(ctx: Ctx, envelope: Envelope, recipients: Recipient[]): boolean {
  return envelope.owner_id === ctx.member.id || ctx.permissions.has(MANAGE) || recipients.some((one) => one.member_id === ctx.member.id);
}

/** The envelope if the caller sees it; 404 otherwise (another workspace's, or one they may not see). */
export async function requireEnvelope(ctx: Ctx, envelopeId: string, lock?: 'update'): Promise<{ envelope: Envelope; recipients: Recipient[] }> {
  const envelope = await ctx.db.envelopes.findById(envelopeId, lock ? { lock } : {});
  if (!envelope) throw new NotFoundError(`Envelope ${envelopeId} not found`);
  const recipients = await recipientsOf(ctx, envelope.id);
  if (!sees(ctx, envelope, recipients)) throw new NotFoundError(`Envelope ${envelopeId} not found`);
  return { envelope, recipients };
}

/** Only the sender (or a holder of sign.envelopes.manage) changes an envelope. */
function assertSender(ctx: Ctx, envelope: Envelope): void {
  if (envelope.owner_id !== ctx.member.id && !ctx.permissions.has(MANAGE)) throw new ForbiddenError(`Only the sender of envelope ${envelope.id} or a holder of ${MANAGE} may change it`);
}

/** An external recipient's signing link, from its token. */
const signingUrl = (ctx: AnyCtx, token: string): string => `${ctx.workspace.origin}/public/apps/sign/sign.html#${token}`;

/** An envelope as answered, with its recipients (and, for the sender, each external signer's link). */
export function presentEnvelope(ctx: AnyCtx & { member?: { id: string } }, envelope: Envelope, recipients: Recipient[]) {
  const sender = ctx.member?.id === envelope.owner_id;
  return {
    id: envelope.id,
    mrn: mrnOf(envelope),
    title: envelope.title,
    message: envelope.message,
    status: envelope.status,
    source_mrn: envelope.source_mrn,
    owner_id: envelope.owner_id,
    template_id: envelope.template_id,
    merge_values: envelope.merge_values,
    document: { filename: envelope.document_filename, sha256: envelope.original_sha256, pages: envelope.page_count },
    final_sha256: envelope.final_sha256,
    final_storage_key: envelope.final_key,
    current_group: envelope.current_group,
    expires_at: envelope.expires_at,
    reminder_days: envelope.reminder_days,
    sent_at: envelope.sent_at,
    completed_at: envelope.completed_at,
    reason: envelope.reason,
    recipients: recipients.map((recipient) => ({
      id: recipient.id,
      name: recipient.name,
      email: recipient.email,
      member_id: recipient.member_id,
      role: recipient.role,
      group: recipient.group_no,
      status: recipient.status,
      signed_at: recipient.signed_at,
      reason: recipient.reason,
      fields: recipient.fields,
      signing_url: sender && recipient.token_sealed ? signingUrl(ctx, ctx.secrets.open(recipient.token_sealed)) : null,
    })),
    created_at: envelope.created_at,
    updated_at: envelope.updated_at,
  };
}

/** One page of the envelopes the caller sees, newest first (status and q filter). */
export async function listEnvelopes(ctx: Ctx, query: { status?: string; q?: string; source_mrn?: string }) {
  const where: Record<string, unknown> = {};
  if (query.status) where.status = query.status;
  if (query.source_mrn) where.source_mrn = query.source_mrn;
  let all = await ctx.db.envelopes.findAll({ where, order: [['created_at', 'DESC'], ['id', 'ASC']] });
  if (query.q) all = all.filter((one) => one.title.toLowerCase().includes(query.q!.toLowerCase()));
  if (!ctx.permissions.has(MANAGE)) {
    const mine = new Set((await ctx.db.recipients.findAll({ where: { member_id: ctx.member.id }, attributes: ['envelope_id'] })).map((one) => one.envelope_id));
    all = all.filter((one) => one.owner_id === ctx.member.id || mine.has(one.id));
  }
  const rows = all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  const recipients = rows.length ? await ctx.db.recipients.findAll({ where: { envelope_id: rows.map((one) => one.id) }, order: [['group_no', 'ASC'], ['position', 'ASC']] }) : [];
  return { rows: rows.map((envelope) => presentEnvelope(ctx, envelope, recipients.filter((one) => one.envelope_id === envelope.id))), count: all.length };
}

/** Checks fields against the document's pages; answers them with ids. */
function checkFields(fields: FieldInput[], pages: number, where: string, role: Role): Field[] {
  if (role !== 'signer' && fields.length) throw new InvalidError(`${where}.fields: only a signer has fields (this recipient is ${role === 'approver' ? 'an approver' : 'a copy'})`, { field: `${where}.fields` });
  return fields.map((field, index) => {
    if (field.page > pages) throw new InvalidError(`${where}.fields[${index}].page ${field.page} is past the document's last page (${pages})`, { field: `${where}.fields[${index}].page` });
    if (field.x + field.width > 1 || field.y + field.height > 1) throw new InvalidError(`${where}.fields[${index}] does not fit on the page (x + width and y + height are at most 1)`, { field: `${where}.fields[${index}]` });
    return { id: newId(), type: field.type, page: field.page, x: field.x, y: field.y, width: field.width, height: field.height, label: field.label ?? null, merge_key: field.merge_key ?? null, value: field.value ?? null, required: field.required ?? field.type !== 'checkbox' };
  });
}

/** Checks the recipients (members of the workspace, no e-mail twice) and writes them. */
async function writeRecipients(ctx: AnyCtx, envelope: Envelope, inputs: RecipientInput[], pages: number): Promise<void> {
  const emails = new Set<string>();
  const rows = inputs.map((input, index) => {
    const email = input.email.trim().toLowerCase();
    if (emails.has(email)) throw new InvalidError(`recipients[${index}].email ${email} is named twice`, { field: `recipients[${index}].email` });
    emails.add(email);
    const role = input.role ?? 'signer';
    return { envelope_id: envelope.id, name: input.name.trim(), email, member_id: input.member_id ?? null, role, group_no: input.group ?? 1, position: index, status: 'pending' as const, fields: checkFields(input.fields ?? [], pages, `recipients[${index}]`, role) };
  });
  const members = rows.filter((row) => row.member_id).map((row) => row.member_id!);
  if (members.length) await ctx.members.require(members, 'recipients.member_id');
  for (const row of rows) await ctx.db.recipients.create(row);
}

/** Where the envelope's original document is stored. */
const originalKey = (id: string): string => `envelopes/${id}/original.pdf`;

/** Prepares a draft envelope: a document (or a template's), its recipients in groups, their fields. */
export async function createEnvelope(ctx: Ctx, input: EnvelopeInput, client: Client): Promise<Envelope> {
  if (!input.document === !input.template_id) throw new InvalidError('Give document or template_id (one of them)', { field: input.document ? 'template_id' : 'document' });
  const id = newId();
  let document: { bytes: Buffer; sha256: string; pages: number; filename: string };
  let recipients = input.recipients ?? [];
  let mergeValues: Record<string, string> = {};
  if (input.template_id) {
    const template = await ctx.db.templates.findById(input.template_id);
    if (!template) throw new InvalidError(`template_id ${input.template_id} is not a template of this workspace`, { field: 'template_id' });
    const bytes = await readStored(ctx, template.document_key);
    document = { bytes, sha256: sha256(bytes), pages: template.page_count, filename: template.document_filename };
    mergeValues = input.merge_values ?? {};
    const missing = [...new Set(template.fields.filter((field) => field.merge_key).map((field) => field.merge_key!))].filter((key) => !(key in mergeValues));
    if (missing.length) throw new InvalidError(`merge_values lacks ${missing.join(', ')} (the template's merge fields)`, { field: 'merge_values' });
    if (recipients.length !== template.roles.length) throw new InvalidError(`recipients: the template has ${template.roles.length} roles (${template.roles.join(', ')}), give one recipient for each, in order`, { field: 'recipients' });
    recipients = recipients.map((recipient, index) => ({
      ...recipient,
      group: recipient.group ?? index + 1,
      fields: template.fields.filter((field) => field.role === template.roles[index]).map(({ role: _role, id: _id, ...field }) => ({ ...field, value: field.merge_key ? mergeValues[field.merge_key] : null })),
    }));
  } else {
    document = await readDocument(input.document!);
  }
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= ctx.now()) throw new InvalidError('expires_at is in the past', { field: 'expires_at' });
  const envelope = await ctx.db.envelopes.create({
    id,
    title: input.title.trim(),
    message: input.message ?? '',
    status: 'draft',
    source_mrn: input.source_mrn ?? formatMrn('sign', 'envelope', id),
    owner_id: ctx.member.id,
    template_id: input.template_id ?? null,
    merge_values: mergeValues,
    document_key: originalKey(id),
    document_filename: document.filename,
    original_sha256: document.sha256,
    page_count: document.pages,
    expires_at: expiresAt,
    reminder_days: input.reminder_days ?? null,
  });
  await writeRecipients(ctx, envelope, recipients, document.pages);
  await ctx.storage.put(envelope.document_key, document.bytes, { contentType: 'application/pdf' });
  await audit(ctx, envelope, null, 'created', ctx.member.email, client, { original_sha256: document.sha256 });
  ctx.search.upsert(envelopeDocument(envelope));
  return envelope;
}

/** Changes a draft: title, message, expiry, reminders, and (replacing them) its recipients with their fields. */
export async function updateEnvelope(ctx: Ctx, envelopeId: string, input: Partial<EnvelopeInput>, client: Client): Promise<Envelope> {
  const { envelope } = await requireEnvelope(ctx, envelopeId, 'update');
  assertSender(ctx, envelope);
  if (envelope.status !== 'draft') throw new ConflictError(`Envelope ${envelope.id} is ${envelope.status}: only a draft changes`);
  const changes: Partial<Envelope> = {};
  if (input.title !== undefined) changes.title = input.title.trim();
  if (input.message !== undefined) changes.message = input.message;
  if (input.expires_at !== undefined) {
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt <= ctx.now()) throw new InvalidError('expires_at is in the past', { field: 'expires_at' });
    changes.expires_at = expiresAt;
  }
  if (input.reminder_days !== undefined) changes.reminder_days = input.reminder_days;
  if (input.recipients) {
    await ctx.db.recipients.destroy({ where: { envelope_id: envelope.id } });
    await writeRecipients(ctx, envelope, input.recipients, envelope.page_count);
  }
  await ctx.db.envelopes.update({ ...changes, revision: envelope.revision + 1 }, { where: { id: envelope.id } });
  const row = (await ctx.db.envelopes.findById(envelope.id))!;
  await audit(ctx, row, null, 'updated', ctx.member.email, client, { fields: [...Object.keys(changes), ...(input.recipients ? ['recipients'] : [])] });
  ctx.search.upsert(envelopeDocument(row));
  return row;
}

/** Deletes a draft (a sent envelope is voided instead; a finished one is a record). */
export async function deleteEnvelope(ctx: Ctx, envelopeId: string) {
  const { envelope } = await requireEnvelope(ctx, envelopeId, 'update');
  assertSender(ctx, envelope);
  if (envelope.status !== 'draft') throw new ConflictError(`Envelope ${envelope.id} is ${envelope.status}: only a draft is deleted (void a sent one)`);
  await ctx.db.auditEvents.destroy({ where: { envelope_id: envelope.id } });
  await ctx.db.recipients.destroy({ where: { envelope_id: envelope.id } });
  await ctx.db.envelopes.destroy({ where: { id: envelope.id } });
  await ctx.storage.delete(envelope.document_key);
  ctx.search.remove('envelope', envelope.id);
  return { id: envelope.id, deleted: true as const };
}

/** The group that acts next: the lowest one with a signer or approver who has not signed. */
function nextGroup(recipients: Recipient[]): number | null {
  const waiting = recipients.filter((one) => one.role !== 'copy' && one.status !== 'signed').map((one) => one.group_no);
  return waiting.length ? Math.min(...waiting) : null;
}

/** Tells the recipients of a group it is their turn (by mail: the app for members, the signing link for others). */
async function notifyGroup(ctx: AnyCtx, envelope: Envelope, recipients: Recipient[], group: number): Promise<void> {
  for (const recipient of recipients.filter((one) => one.group_no === group && one.role !== 'copy' && one.status === 'pending')) {
    const link = recipient.member_id ? `${ctx.workspace.origin}/app/sign/envelopes/${envelope.id}` : signingUrl(ctx, ctx.secrets.open(recipient.token_sealed!));
    ctx.mail.send({
      to: recipient.email,
      subject: `Please ${recipient.role === 'approver' ? 'approve' : 'sign'}: ${envelope.title}`,
      text: `Hello ${recipient.name},\n\n${envelope.message ? `${envelope.message}\n\n` : ''}Please ${recipient.role === 'approver' ? 'approve' : 'sign'} "${envelope.title}":\n${link}\n`,
    });
    await ctx.db.recipients.update({ status: recipientMachine.move(recipient.status, 'notify').to }, { where: { id: recipient.id } });
    await audit(ctx, envelope, recipient, 'notified', who(recipient), SYSTEM, { group });
  }
}

/** Sends a draft: checks it is complete, gives each external recipient a link, and notifies the first group. */
export async function sendEnvelope(ctx: Ctx, envelopeId: string, client: Client) {
  const { envelope } = await requireEnvelope(ctx, envelopeId, 'update');
  assertSender(ctx, envelope);
  const move = envelopeMachine.move(envelope.status, 'send');
  const recipients = await recipientsOf(ctx, envelope.id, 'update');
  if (!recipients.some((one) => one.role !== 'copy')) throw new ConflictError(`Envelope ${envelope.id} has no signer or approver to send to`);
  const unmarked = recipients.find((one) => one.role === 'signer' && !one.fields.some((field) => field.type === 'signature' || field.type === 'initials'));
  if (unmarked) throw new ConflictError(`Signer ${unmarked.name} has no signature field: place one before sending`);
  const now = ctx.now();
  const expiresAt = envelope.expires_at ?? new Date(now.getTime() + ctx.settings.expiry_days * 86_400_000);
  const reminderDays = envelope.reminder_days ?? ctx.settings.reminder_days;
  for (const recipient of recipients.filter((one) => !one.member_id)) {
    const token = randomBytes(24).toString('base64url');
    await ctx.db.recipients.update({ token_sealed: ctx.secrets.seal(token), token_hash: hash(token) }, { where: { id: recipient.id } });
  }
  const group = nextGroup(recipients)!;
  await ctx.db.envelopes.update({ status: move.to, sent_at: now, current_group: group, expires_at: expiresAt, reminder_days: reminderDays }, { where: { id: envelope.id } });
  const row = (await ctx.db.envelopes.findById(envelope.id))!;
  await audit(ctx, row, null, 'sent', ctx.member.email, client, { expires_at: expiresAt.toISOString() });
  await notifyGroup(ctx, row, await recipientsOf(ctx, envelope.id), group);
  ctx.events.stage('core.sign.envelope.sent', { envelope_id: row.id, mrn: mrnOf(row), source_mrn: row.source_mrn, title: row.title, sent_at: now.toISOString(), by: ctx.member.mrn });
  ctx.events.stage('core.sign.expiry.scheduled', { envelope_id: row.id }, {}, { deliverAt: expiresAt, dedupeKey: `expiry:${row.id}` });
  if (reminderDays > 0) ctx.events.stage('core.sign.reminder.scheduled', { envelope_id: row.id, round: 1 }, {}, { deliverAt: new Date(now.getTime() + reminderDays * 86_400_000), dedupeKey: `reminder:${row.id}:1` });
  ctx.search.upsert(envelopeDocument(row));
  return row;
}

/** Ends an envelope: voided by its sender (a reason), declined by a recipient, or expired. */
async function end(ctx: AnyCtx, envelope: Envelope, how: 'void' | 'decline' | 'expire', reason: string | null, recipient: Recipient | null, actor: string, client: Client) {
  const move = envelopeMachine.move(envelope.status, how);
  await ctx.db.envelopes.update({ status: move.to, reason, current_group: null }, { where: { id: envelope.id } });
  const row = (await ctx.db.envelopes.findById(envelope.id))!;
  await audit(ctx, row, recipient, move.to, actor, client, reason ? { reason } : {});
  const payload = { envelope_id: row.id, mrn: mrnOf(row), source_mrn: row.source_mrn, reason, ...(recipient ? { recipient_id: recipient.id } : {}) };
  if (how === 'void') ctx.events.stage('core.sign.envelope.voided', payload);
  else if (how === 'decline') ctx.events.stage('core.sign.envelope.declined', payload);
  else ctx.events.stage('core.sign.envelope.expired', payload);
  ctx.search.upsert(envelopeDocument(row));
  return row;
}

/** Voids a draft or a sent envelope, with a reason. */
export async function voidEnvelope(ctx: Ctx, envelopeId: string, reason: string, client: Client) {
  const { envelope } = await requireEnvelope(ctx, envelopeId, 'update');
  assertSender(ctx, envelope);
  return end(ctx, envelope, 'void', reason.trim(), null, ctx.member.email, client);
}

/**
 * The order, enforced: a recipient acts only while the envelope is out and their group is the
 * current one (however they got to the link or the route), and only once.
 */
function assertTurn(envelope: Envelope, recipient: Recipient): void {
  if (envelope.status !== 'sent') throw new ConflictError(`Envelope ${envelope.id} is ${envelope.status}: there is nothing to sign`);
  if (recipient.role === 'copy') throw new ConflictError(`${recipient.name} receives a copy and does not sign`);
  if (recipient.status === 'signed' || recipient.status === 'declined') throw new ConflictError(`${recipient.name} has already ${recipient.status}`);
  if (recipient.group_no !== envelope.current_group) throw new ConflictError(`It is not ${recipient.name}'s turn: group ${recipient.group_no} signs after group ${envelope.current_group} has finished`);
}

/** Marks a recipient viewed the first time they open the envelope on their turn (event `envelope.viewed`). */
async function markViewed(ctx: AnyCtx, envelope: Envelope, recipient: Recipient, client: Client): Promise<void> {
  if (recipient.status !== 'notified') return;
  await ctx.db.recipients.update({ status: recipientMachine.move(recipient.status, 'view').to }, { where: { id: recipient.id } });
  await audit(ctx, envelope, recipient, 'viewed', who(recipient), client);
  ctx.events.stage('core.sign.envelope.viewed', { envelope_id: envelope.id, mrn: mrnOf(envelope), source_mrn: envelope.source_mrn, recipient_id: recipient.id });
}

/** What a signer gives: their mark and the values of their fields (by field id). */
export interface SignInput {
  signature?: Mark;
  values?: Record<string, string | boolean>;
}

/** Records one recipient's signature (or approval); the last one completes the envelope. */
async function sign(ctx: AnyCtx, envelope: Envelope, recipient: Recipient, input: SignInput, client: Client) {
  assertTurn(envelope, recipient);
  const now = ctx.now();
  const values = input.values ?? {};
  const unknown = Object.keys(values).find((key) => !recipient.fields.some((field) => field.id === key));
  if (unknown) throw new InvalidError(`values.${unknown} is not a field of ${recipient.name}`, { field: `values.${unknown}` });
  const needsMark = recipient.fields.some((field) => field.type === 'signature' || field.type === 'initials');
  if (needsMark && !input.signature) throw new InvalidError('signature is required: draw, type or upload one', { field: 'signature' });
  if (input.signature && input.signature.kind === 'type' && !input.signature.text) throw new InvalidError('signature.text is required for a typed signature', { field: 'signature.text' });
  if (input.signature && input.signature.kind !== 'type' && !input.signature.image) throw new InvalidError(`signature.image is required for a ${input.signature.kind === 'draw' ? 'drawn' : 'uploaded'} signature`, { field: 'signature.image' });
  if (input.signature?.image && !(await drawableImage(input.signature.image))) throw new InvalidError('signature.image is not a PNG or JPEG image', { field: 'signature.image' });
  const fields = recipient.fields.map((field) => {
    if (field.type === 'date') return { ...field, value: now.toISOString().slice(0, 10) };
    if (field.type === 'signature' || field.type === 'initials') return { ...field, value: null };
    if (field.merge_key) return field;
    const value = values[field.id] ?? field.value;
    if (field.type === 'checkbox') {
      if (value !== undefined && value !== null && typeof value !== 'boolean') throw new InvalidError(`values.${field.id} is a checkbox: true or false`, { field: `values.${field.id}` });
      if (field.required && value !== true) throw new InvalidError(`values.${field.id} (${field.label ?? 'checkbox'}) must be ticked`, { field: `values.${field.id}` });
      return { ...field, value: value === true };
    }
    if (value !== null && value !== undefined && typeof value !== 'string') throw new InvalidError(`values.${field.id} is a text: a string`, { field: `values.${field.id}` });
    if (field.required && !value) throw new InvalidError(`values.${field.id} (${field.label ?? field.type}) is required`, { field: `values.${field.id}` });
    return { ...field, value: value ?? null };
  });
  const mark = input.signature ? { kind: input.signature.kind, text: input.signature.text ?? null, image: input.signature.image ?? null } : null;
  await ctx.db.recipients.update({ status: recipientMachine.move(recipient.status, 'sign').to, signed_at: now, fields, mark, code_hash: null, code_expires_at: null }, { where: { id: recipient.id } });
  await audit(ctx, envelope, recipient, recipient.role === 'approver' ? 'approved' : 'signed', who(recipient), client, mark ? { signature: mark.kind } : {});
  const recipients = await recipientsOf(ctx, envelope.id);
  const group = nextGroup(recipients);
  let finalKey: string | undefined;
  if (group === null) {
    finalKey = await complete(ctx, envelope, recipients);
  } else if (group !== envelope.current_group) {
    await ctx.db.envelopes.update({ current_group: group }, { where: { id: envelope.id } });
    await notifyGroup(ctx, envelope, recipients, group);
  }
  ctx.events.stage('core.sign.recipient.signed', { envelope_id: envelope.id, recipient_id: recipient.id, mrn: mrnOf(envelope), source_mrn: envelope.source_mrn, role: recipient.role as 'signer' | 'approver', final_storage_key: finalKey });
  return (await ctx.db.envelopes.findById(envelope.id))!;
}

/** The final file: fields flattened, the audit certificate appended, sealed (PAdES) by the workspace's certificate. */
async function complete(ctx: AnyCtx, envelope: Envelope, recipients: Recipient[]): Promise<string> {
  const now = ctx.now();
  const original = await readStored(ctx, envelope.document_key);
  const doc = (await openPdf(original))!;
  const pages = doc.getPages();
  const placed: Array<PlacedField & { mark: Mark | null }> = [];
  for (const recipient of recipients) {
    for (const field of recipient.fields) {
      const page = pages[field.page - 1];
      if (!page) continue;
      const { width, height } = page.getSize();
      placed.push({ type: field.type, page: field.page, x: field.x * width, y: height - (field.y + field.height) * height, width: field.width * width, height: field.height * height, value: field.value, mark: recipient.mark });
    }
  }
  await flatten(doc, placed);
  const move = envelopeMachine.move(envelope.status, 'complete');
  await audit(ctx, envelope, null, 'completed', 'Sign', SYSTEM, { original_sha256: envelope.original_sha256 });
  const lines = (await trail(ctx, envelope.id)).map((row) => ({ at: row.at, action: row.action, who: row.actor, ip: row.ip, user_agent: row.user_agent }));
  await appendCertificate(doc, { envelopeId: envelope.id, title: envelope.title, originalSha256: envelope.original_sha256, lines, workspace: ctx.workspace.name });
  const sealed = await sealPdf(doc, await identityOf(ctx), { reason: `Signed: ${envelope.title}`.slice(0, 200), name: ctx.workspace.name, location: ctx.workspace.origin, signingTime: now });
  const finalKey = `envelopes/${envelope.id}/final.pdf`;
  const finalSha = sha256(sealed);
  await ctx.storage.put(finalKey, sealed, { contentType: 'application/pdf' });
  await ctx.db.envelopes.update({ status: move.to, completed_at: now, final_key: finalKey, final_sha256: finalSha, current_group: null }, { where: { id: envelope.id } });
  await audit(ctx, envelope, null, 'sealed', 'Sign', SYSTEM, { final_sha256: finalSha });
  for (const copy of recipients) {
    ctx.mail.send({ to: copy.email, subject: `Completed: ${envelope.title}`, text: `Hello ${copy.name},\n\n"${envelope.title}" is signed by everyone. The signed file is attached (SHA-256 ${finalSha}).\n`, attachments: [{ filename: envelope.document_filename.replace(/\.pdf$/i, '') + '-signed.pdf', contentType: 'application/pdf', content: sealed }] });
  }
  const row = (await ctx.db.envelopes.findById(envelope.id))!;
  ctx.events.stage('core.sign.envelope.completed', { envelope_id: row.id, mrn: mrnOf(row), source_mrn: row.source_mrn, completed_at: now.toISOString(), final_storage_key: finalKey, final_sha256: finalSha, original_sha256: row.original_sha256 });
  ctx.search.upsert(envelopeDocument(row));
  return finalKey;
}

/** An internal recipient of the envelope, acting as themselves only: a forwarded link is worthless to a colleague. */
async function ownRecipient(ctx: Ctx, envelopeId: string, recipientId: string): Promise<{ envelope: Envelope; recipient: Recipient }> {
  const { envelope } = await requireEnvelope(ctx, envelopeId, 'update');
  const recipient = await ctx.db.recipients.findOne({ where: { id: recipientId, envelope_id: envelope.id }, lock: 'update' });
  if (!recipient) throw new NotFoundError(`Recipient ${recipientId} not found`);
  if (!recipient.member_id) throw new ForbiddenError(`${recipient.name} is an external signer: they sign on their link, with the code mailed to them`);
  if (recipient.member_id !== ctx.member.id) throw new ForbiddenError(`Only ${recipient.name} signs as this recipient`);
  return { envelope, recipient };
}

/** An internal signer signs (or approves). */
export async function signAsMember(ctx: Ctx, envelopeId: string, recipientId: string, input: SignInput, client: Client) {
  const { envelope, recipient } = await ownRecipient(ctx, envelopeId, recipientId);
  assertTurn(envelope, recipient);
  await markViewed(ctx, envelope, recipient, client);
  return sign(ctx, envelope, (await ctx.db.recipients.findById(recipient.id))!, input, client);
}

/** An internal signer declines, with a reason: the envelope ends. */
export async function declineAsMember(ctx: Ctx, envelopeId: string, recipientId: string, reason: string, client: Client) {
  const { envelope, recipient } = await ownRecipient(ctx, envelopeId, recipientId);
  return decline(ctx, envelope, recipient, reason, client);
}

async function decline(ctx: AnyCtx, envelope: Envelope, recipient: Recipient, reason: string, client: Client) {
  assertTurn(envelope, recipient);
  await ctx.db.recipients.update({ status: recipientMachine.move(recipient.status, 'decline').to, reason: reason.trim(), code_hash: null, code_expires_at: null }, { where: { id: recipient.id } });
  return end(ctx, envelope, 'decline', reason.trim(), recipient, who(recipient), client);
}

/** Reading an envelope as its internal recipient on their turn marks it viewed. */
export async function viewAsMember(ctx: Ctx, envelopeId: string, client: Client) {
  const { envelope, recipients } = await requireEnvelope(ctx, envelopeId);
  const mine = recipients.find((one) => one.member_id === ctx.member.id && one.status === 'notified' && one.group_no === envelope.current_group && envelope.status === 'sent');
  if (mine) {
    await markViewed(ctx, envelope, mine, client);
    return { envelope, recipients: await recipientsOf(ctx, envelope.id) };
  }
  return { envelope, recipients };
}

/** The audit trail of an envelope the caller sees. */
export async function auditOf(ctx: Ctx, envelopeId: string) {
  const { envelope } = await requireEnvelope(ctx, envelopeId);
  return trail(ctx, envelope.id);
}

/** The original or the final file of an envelope the caller sees. */
export async function fileOf(ctx: Ctx, envelopeId: string, version: 'original' | 'final') {
  const { envelope } = await requireEnvelope(ctx, envelopeId);
  if (version === 'final' && !envelope.final_key) throw new NotFoundError(`Envelope ${envelope.id} is ${envelope.status}: it has no final file yet`);
  const bytes = await readStored(ctx, version === 'final' ? envelope.final_key! : envelope.document_key);
  return { bytes, filename: version === 'final' ? envelope.document_filename.replace(/\.pdf$/i, '') + '-signed.pdf' : envelope.document_filename };
}

// ---- The external signer's link -------------------------------------------------------------

/** The recipient and envelope behind a link; 404 for an unknown token. */
async function byToken(ctx: AnyCtx, token: string, lock?: 'update'): Promise<{ envelope: Envelope; recipient: Recipient }> {
  const recipient = await ctx.db.recipients.findOne({ where: { token_hash: hash(token) }, ...(lock ? { lock } : {}) });
  const envelope = recipient ? await ctx.db.envelopes.findById(recipient.envelope_id, lock ? { lock } : {}) : null;
  if (!recipient || !envelope) throw new NotFoundError('This signing link is not valid');
  return { envelope, recipient };
}

/** What the signing page shows (and, on the recipient's turn, their first view). */
export async function signingPage(ctx: AnyCtx, token: string, client: Client) {
  const { envelope, recipient } = await byToken(ctx, token, 'update');
  assertTurn(envelope, recipient);
  await markViewed(ctx, envelope, recipient, client);
  return {
    envelope_id: envelope.id,
    recipient_id: recipient.id,
    title: envelope.title,
    message: envelope.message,
    sender: ctx.workspace.name,
    name: recipient.name,
    email: recipient.email.replace(/^(.).*(@.*)$/, '$1…$2'),
    role: recipient.role,
    pages: envelope.page_count,
    fields: recipient.fields,
    expires_at: envelope.expires_at,
  };
}

/** The document behind a link, for the signer to read (on their turn only). */
export async function signingDocument(ctx: AnyCtx, token: string) {
  const { envelope, recipient } = await byToken(ctx, token);
  assertTurn(envelope, recipient);
  return { bytes: await readStored(ctx, envelope.document_key), filename: envelope.document_filename };
}

const CODE_MINUTES = 10;
const codeHash = (recipientId: string, code: string): string => hash(`${recipientId}:${code}`);

/** Mails a one-time code to the recipient's address (valid ten minutes; a new one replaces it). */
export async function sendCode(ctx: AnyCtx, token: string, client: Client) {
  const { envelope, recipient } = await byToken(ctx, token, 'update');
  assertTurn(envelope, recipient);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(ctx.now().getTime() + CODE_MINUTES * 60_000);
  await ctx.db.recipients.update({ code_hash: codeHash(recipient.id, code), code_expires_at: expiresAt }, { where: { id: recipient.id } });
  ctx.mail.send({ to: recipient.email, subject: `Your code to sign ${envelope.title}`, text: `Hello ${recipient.name},\n\nYour code: ${code}\n\nIt is valid for ${CODE_MINUTES} minutes. If you did not ask for it, ignore this mail.\n` });
  await audit(ctx, envelope, recipient, 'code_sent', who(recipient), client);
  return { sent_to: recipient.email.replace(/^(.).*(@.*)$/, '$1…$2'), expires_at: expiresAt };
}

/** Checks the mailed code of a link's recipient. */
function checkCode(ctx: AnyCtx, recipient: Recipient, code: string): void {
  if (!recipient.code_hash || !recipient.code_expires_at) throw new ForbiddenError('Ask for a code first: it is mailed to you');
  if (recipient.code_expires_at <= ctx.now()) throw new ForbiddenError('The code has expired: ask for a new one');
  if (recipient.code_hash !== codeHash(recipient.id, code)) throw new ForbiddenError('The code is not right');
}

/** An external signer signs on their link with the mailed code. */
export async function signWithToken(ctx: AnyCtx, token: string, input: SignInput & { code: string }, client: Client) {
  const { envelope, recipient } = await byToken(ctx, token, 'update');
  assertTurn(envelope, recipient);
  checkCode(ctx, recipient, input.code);
  await markViewed(ctx, envelope, recipient, client);
  const row = await sign(ctx, envelope, (await ctx.db.recipients.findById(recipient.id))!, input, client);
  return { envelope_id: row.id, status: row.status, recipient_status: 'signed' as const };
}

/** An external signer declines on their link with the mailed code. */
export async function declineWithToken(ctx: AnyCtx, token: string, input: { code: string; reason: string }, client: Client) {
  const { envelope, recipient } = await byToken(ctx, token, 'update');
  assertTurn(envelope, recipient);
  checkCode(ctx, recipient, input.code);
  const row = await decline(ctx, envelope, recipient, input.reason, client);
  return { envelope_id: row.id, status: row.status, recipient_status: 'declined' as const };
}

// ---- Delayed events -------------------------------------------------------------------------

/** A reminder round: recipients of the current group who have not signed get a mail; the next round is scheduled before expiry. */
export async function remind(ctx: AnyCtx, envelopeId: string, round: number): Promise<void> {
  const envelope = await ctx.db.envelopes.findById(envelopeId, { lock: 'update' });
  if (!envelope || envelope.status !== 'sent' || !envelope.reminder_days) return;
  const recipients = await recipientsOf(ctx, envelope.id);
  for (const recipient of recipients.filter((one) => one.group_no === envelope.current_group && one.role !== 'copy' && (one.status === 'notified' || one.status === 'viewed'))) {
    const link = recipient.member_id ? `${ctx.workspace.origin}/app/sign/envelopes/${envelope.id}` : signingUrl(ctx, ctx.secrets.open(recipient.token_sealed!));
    ctx.mail.send({ to: recipient.email, subject: `Reminder: please sign ${envelope.title}`, text: `Hello ${recipient.name},\n\n"${envelope.title}" is waiting for you:\n${link}\n` });
    await audit(ctx, envelope, recipient, 'reminded', who(recipient), SYSTEM, { round });
  }
  const next = new Date(ctx.now().getTime() + envelope.reminder_days * 86_400_000);
  if (!envelope.expires_at || next < envelope.expires_at) ctx.events.stage('core.sign.reminder.scheduled', { envelope_id: envelope.id, round: round + 1 }, {}, { deliverAt: next, dedupeKey: `reminder:${envelope.id}:${round + 1}` });
}

/** Expires an envelope still out at its expiry. */
export async function expire(ctx: AnyCtx, envelopeId: string): Promise<void> {
  const envelope = await ctx.db.envelopes.findById(envelopeId, { lock: 'update' });
  if (!envelope || envelope.status !== 'sent' || !envelope.expires_at || envelope.expires_at > ctx.now()) return;
  await end(ctx, envelope, 'expire', 'Not signed before it expired', null, 'Sign', SYSTEM);
}
