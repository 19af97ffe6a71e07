import { InvalidError, NotFoundError } from '@wpk/sdk';
import type { FeedsBaseContext, FeedsContext } from '../kit.js';
import type { Binding } from '../models/index.js';
import { audienceDepartment } from './audience.js';
import { channels } from './channels.js';
import { posts, stagePublished } from './posts.js';

/**
 * The catalog actions a channel may turn into cards, and the payload fields each offers: a binding
 * shows only the fields its admin chose among these, so a card never carries more than consented.
 * A new bindable action is a subscription in app.json and a row here.
 */
export const BINDABLE: Record<string, { label: string; fields: readonly string[] }> = {
  'core.workers.worker.hired': { label: 'A worker was hired (Workers)', fields: ['name', 'title', 'start_date', 'employment_type'] },
  'core.ats.application.hired': { label: 'A candidate was hired (Recruiting)', fields: ['candidate_name', 'job_title'] },
  'core.growth.praise.given': { label: 'Praise was given (Growth)', fields: ['message'] },
  'core.growth.goal.completed': { label: 'A goal was completed (Growth)', fields: ['title', 'progress'] },
};

/** The bindable actions as `GET /feeds/bindable-actions` answers them. */
export const bindableActions = () => Object.entries(BINDABLE).map(([action, { label, fields }]) => ({ action, label, fields: [...fields] }));

/** `{field}` placeholders of a template. */
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/g;

/** What `POST /feeds/bindings` takes. */
export interface BindingInput {
  action: string;
  channel_id: string;
  fields: string[];
  title?: string | null;
  template: string;
}

/** 400 naming a placeholder of `text` that is not among the chosen fields. */
function checkPlaceholders(text: string, fields: string[], field: string): void {
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    if (!fields.includes(name)) throw new InvalidError(`${field}: {${name}} is not among the fields the binding shows (${fields.join(', ')})`, { field });
  }
}

/** Binds a bindable action to a channel with the fields a card may show and its template. */
export async function createBinding(ctx: FeedsContext, input: BindingInput): Promise<Binding> {
  const offer = BINDABLE[input.action];
  if (!offer) throw new InvalidError(`action: ${input.action} is not an action a channel can show (${Object.keys(BINDABLE).join(', ')})`, { field: 'action' });
  const fields = [...new Set(input.fields)];
  const foreign = fields.find((name) => !offer.fields.includes(name));
  if (foreign) throw new InvalidError(`fields: ${input.action} offers ${offer.fields.join(', ')}, not ${foreign}`, { field: 'fields' });
  const title = input.title?.trim() || null;
  if (title) checkPlaceholders(title, fields, 'title');
  checkPlaceholders(input.template, fields, 'template');
  const channel = await channels.require(ctx, input.channel_id);
  return ctx.db.bindings.create({ action: input.action, channel_id: channel.id, fields, title, template: input.template.trim(), created_by: ctx.member.id });
}

/** Every binding, oldest first. */
export const listBindings = (ctx: FeedsContext) => ctx.db.bindings.findAndCountAll({ order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page?.offset ?? 0, limit: ctx.page?.limit ?? 25 });

/** Removes a binding: no more cards from it (the cards made stay). */
export async function deleteBinding(ctx: FeedsContext, bindingId: string) {
  const binding = await ctx.db.bindings.findById(bindingId, { lock: 'update' });
  if (!binding) throw new NotFoundError(`Binding ${bindingId} not found`);
  await ctx.db.bindings.destroy({ where: { id: binding.id } });
  return { id: binding.id, deleted: true };
}

/** A payload value as a card shows it: text and numbers as they are, yes/no, nothing for anything else. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return '';
}

/** `text` with each `{field}` replaced by the payload's value, when the field is among `fields`. */
const fill = (text: string, fields: string[], payload: Record<string, unknown>) => text.replace(PLACEHOLDER, (token, name: string) => (fields.includes(name) ? shown(payload[name]) : token));

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A delivered bindable event: each binding of its action makes one published card in its channel,
 * authored by the binding's admin, showing only the chosen fields; once per binding and event id,
 * so a redelivery changes nothing. Returns how many cards were made.
 */
export async function makeCards(ctx: FeedsBaseContext, action: string, payload: Record<string, unknown>, eventId: string): Promise<number> {
  const bound = await ctx.db.bindings.findAll({ where: { action }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  let made = 0;
  for (const binding of bound) {
    if (await ctx.db.cards.findOne({ where: { binding_id: binding.id, event_id: eventId } })) continue;
    const title = binding.title ? fill(binding.title, binding.fields, payload).trim().slice(0, 200) || null : null;
    const text = fill(binding.template, binding.fields, payload).trim() || binding.template;
    const body = text.split(/\n{2,}/).map((part) => `<p>${escape(part.trim()).replace(/\n/g, '<br>')}</p>`).join('');
    const now = ctx.now();
    const channel = await ctx.db.channels.findById(binding.channel_id);
    const post = await posts.create(ctx, { channel_id: binding.channel_id, author_id: binding.created_by, title, body, status: 'published', requires_acknowledgement: false, publish_at: null, published_at: now, revision: 1, department_id: channel ? audienceDepartment(channel) : null });
    await ctx.db.revisions.create({ post_id: post.id, revision: 1, title, body, edited_by: binding.created_by });
    await ctx.db.cards.create({ binding_id: binding.id, event_id: eventId, post_id: post.id });
    await stagePublished(ctx, post);
    made += 1;
  }
  return made;
}
