/**
 * Public forms: a form view gets a link (a token shown once; only its SHA-256 is kept) that
 * anyone may open and submit without signing in, rate limited by address and by form. A
 * submission adds a record with the form's fields only, and emits `core.tables.form.submitted`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Field, View } from '../models/index.js';
import { requireView } from './access.js';
import { COMPUTED } from './cells.js';
import { fieldsOf, insertRecords } from './records.js';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The fields a form asks for: its `form_fields`, else every field a person can fill in. */
function formFields(view: View, fields: Field[]): Field[] {
  const chosen = (view.config as { form_fields?: string[] }).form_fields;
  const writable = fields.filter((field) => !COMPUTED.has(field.type) && field.type !== 'attachment' && field.type !== 'link' && field.type !== 'member');
  return chosen?.length ? chosen.map((id) => writable.find((field) => field.id === id)).filter((field): field is Field => Boolean(field)) : writable;
}

/** Makes (or replaces) a form view's public link: the page's address on the workspace's public origin and the API path it calls; the token is shown once (creators). */
export async function createFormLink(ctx: Ctx, viewId: string) {
  const { view } = await requireView(ctx, viewId, 'creator', 'update');
  if (!ctx.settings.public_forms) throw new ConflictError('Public forms are turned off in the Tables settings (public_forms)');
  if (view.type !== 'form') throw new ConflictError(`View ${view.name} is a ${view.type} view: only a form view has a public link`);
  if (view.owner_id !== null) throw new ConflictError(`View ${view.name} is personal: share it before making its public link`);
  const token = randomBytes(24).toString('base64url');
  await ctx.db.views.update({ form_token_hash: hashToken(token), revision: view.revision + 1 }, { where: { id: view.id } });
  // The page a person opens (the token in its fragment, never in a server log), on the
  // workspace's configured public origin: never built from the request's Host.
  const path = `/public/apps/tables/form.html#${token}`;
  return { view_id: view.id, token, path, url: `${ctx.workspace.origin}${path}`, api_path: `/tables/forms/${token}` };
}

async function viewOfToken(ctx: AnyCtx, token: string): Promise<View> {
  const view = ctx.settings.public_forms ? await ctx.db.views.findOne({ where: { form_token_hash: hashToken(token) } }) : null;
  if (!view || view.type !== 'form') throw new NotFoundError('Form not found');
  return view;
}

/** What a public form shows: its title and the fields it asks for. */
export async function readForm(ctx: AnyCtx, token: string) {
  const view = await viewOfToken(ctx, token);
  const fields = formFields(view, await fieldsOf(ctx, view.table_id));
  return {
    title: view.name,
    fields: fields.map((field) => ({ id: field.id, name: field.name, type: field.type, choices: ((field.options.choices as Array<{ name: string }> | undefined) ?? []).map((choice) => choice.name) })),
  };
}

/** Submits a public form: a record with the form's fields (any other is 400). */
export async function submitForm(ctx: AnyCtx, token: string, cells: Record<string, unknown>) {
  const view = await viewOfToken(ctx, token);
  const table = await ctx.db.tables.findById(view.table_id, { lock: 'update' });
  if (!table) throw new NotFoundError('Form not found');
  const allowed = new Set(formFields(view, await fieldsOf(ctx, table.id)).map((field) => field.id));
  const other = Object.keys(cells).find((id) => !allowed.has(id));
  if (other) throw new InvalidError(`cells.${other}: this form does not ask for field ${other}`, { field: `cells.${other}` });
  const [record] = await insertRecords(ctx, table, [{ cells }], null, null);
  ctx.events.stage('core.tables.form.submitted', { view_id: view.id, table_id: table.id, base_id: table.base_id, record_id: record!.id });
  return { record_id: record!.id, submitted: true as const };
}
