import { defineStateMachine, ForbiddenError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { Suggestion, SuggestionStatus } from '../models/index.js';
import { insertContact, presentContacts, resolveFields, type ContactInput } from './contacts.js';
import type { ContactsContext, ContactsEventContext } from '../kit.js';
import { idFromMrn, presentSuggestion } from './present.js';

/** A suggestion is pending until its member accepts it (it becomes a contact) or dismisses it; either is final. */
export const suggestionStatus = defineStateMachine({
  name: 'suggestion',
  states: ['pending', 'accepted', 'dismissed'] as const,
  initial: 'pending',
  moves: {
    accept: { from: ['pending'], to: 'accepted' },
    dismiss: { from: ['pending'], to: 'dismissed' },
  },
});

/** Where an interaction was seen. */
export type InteractionSource = 'chat' | 'call' | 'mail';

/**
 * A conversation or call with more people than this counts for no one: a company-wide channel
 * or all-hands call says nothing about whom a member works with (Google counts direct
 * interactions only).
 */
export const MAX_PARTICIPANTS = 10;

/**
 * Claims an interaction event by its id (`metadata.event_id`): true the first time, false on a
 * redelivery, which must count nothing again. An event without an id is always new.
 */
export async function firstDelivery(ctx: ContactsEventContext, event: { action: string; metadata: Record<string, unknown> }): Promise<boolean> {
  const eventId = typeof event.metadata.event_id === 'string' ? event.metadata.event_id.slice(0, 100) : null;
  if (!eventId) return true;
  await ctx.lock(`event:${eventId}`);
  if (await ctx.db.seenEvents.findOne({ where: { event_id: eventId } })) return false;
  await ctx.db.seenEvents.create({ event_id: eventId, action: event.action });
  return true;
}

/** When the interaction happened: the event's `emitted_at`, else now by the platform's clock. */
export function eventInstant(ctx: ContactsEventContext, event: { metadata: Record<string, unknown> }): Date {
  const emittedAt = typeof event.metadata.emitted_at === 'string' ? new Date(event.metadata.emitted_at) : null;
  return emittedAt && !Number.isNaN(emittedAt.getTime()) ? emittedAt : ctx.now();
}

/**
 * Records one interaction among `participantMrns` (member MRNs; other values are ignored) seen
 * in another app's event: each participant gets, for every other participant who is not yet a
 * contact, a suggestion (or the existing one counts one more interaction, whatever its status: a
 * dismissed suggestion stays dismissed). Idempotent by the event's id: a redelivery counts
 * nothing again. Nothing happens while the settings turn suggestions off.
 */
export async function recordInteraction(ctx: ContactsEventContext, event: { action: string; metadata: Record<string, unknown> }, source: InteractionSource, participantMrns: unknown[]): Promise<number> {
  if (!ctx.settings.suggestions_enabled) return 0;
  const members = [...new Set(participantMrns.map((mrn) => idFromMrn(mrn, 'account', 'member')).filter((id): id is string => id !== null))];
  if (members.length < 2 || members.length > MAX_PARTICIPANTS) return 0;
  if (!(await firstDelivery(ctx, event))) return 0;
  const at = eventInstant(ctx, event);
  const known = new Set((await ctx.db.contactKeys.findAll({ where: { kind: 'member', value: members.map((id) => `mrn:account:member:${id}`) } })).map((key) => key.value));
  let touched = 0;
  for (const owner of members) {
    for (const other of members) {
      const mrn = `mrn:account:member:${other}`;
      if (other === owner || known.has(mrn)) continue;
      const personKey = `member:${mrn}`;
      // Two deliveries for one pair take turns: the look-up and the write are one step.
      await ctx.lock(`suggestion:${owner}:${personKey}`);
      const row = await ctx.db.suggestions.findOne({ where: { owner_id: owner, person_key: personKey } });
      if (!row) {
        await ctx.db.suggestions.create({ owner_id: owner, person_key: personKey, member_mrn: mrn, sources: [source], interactions: 1, last_interaction_at: at, status: 'pending' });
      } else {
        const sources = row.sources.includes(source) ? row.sources : [...row.sources, source];
        const last = row.last_interaction_at.getTime() > at.getTime() ? row.last_interaction_at : at;
        await ctx.db.suggestions.update({ interactions: row.interactions + 1, sources, last_interaction_at: last }, { where: { id: row.id } });
      }
      touched += 1;
    }
  }
  return touched;
}

/** The caller's suggestion; 404 for anyone else's (a member sees only their own). */
async function requireOwnSuggestion(ctx: ContactsContext, suggestionId: string): Promise<Suggestion> {
  const suggestion = await ctx.db.suggestions.findOne({ where: { id: suggestionId, owner_id: ctx.member.id }, lock: 'update' });
  if (!suggestion) throw new NotFoundError(`Suggestion ${suggestionId} not found`);
  return suggestion;
}

/** One page of the caller's suggestions of a status (default pending): most interactions first, then most recent. */
export async function listSuggestions(ctx: ContactsContext, status: SuggestionStatus = 'pending') {
  const { rows, count } = await ctx.db.suggestions.findAndCountAll({
    where: { owner_id: ctx.member.id, status },
    order: [['interactions', 'DESC'], ['last_interaction_at', 'DESC'], ['id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
  return { rows: rows.map(presentSuggestion), count };
}

/**
 * Accepts a suggestion: it becomes a contact (source `suggestion`) made of what the suggestion
 * knows (member, name, email) and the fields the caller adds or overrides. Needs
 * `contacts.contacts.create` besides the route's key. 409 naming both states when it is no longer pending.
 */
export async function acceptSuggestion(ctx: ContactsContext, suggestionId: string, input: ContactInput) {
  if (!ctx.permissions.has('contacts.contacts.create')) throw new ForbiddenError('Missing permission: contacts.contacts.create');
  const suggestion = await requireOwnSuggestion(ctx, suggestionId);
  const { to } = suggestionStatus.move(suggestion.status, 'accept');
  const name = input.display_name ?? input.given_name ?? input.family_name ?? suggestion.name;
  const emails = input.emails ?? (suggestion.email ? [{ value: suggestion.email, type: 'other' as const }] : []);
  if (!name && emails.length === 0 && !(input.phones ?? []).length) {
    throw new InvalidError(`display_name is required: the suggestion knows no name or email of ${suggestion.member_mrn ?? 'this person'}`);
  }
  const fields = await resolveFields(ctx, { ...input, display_name: input.display_name ?? suggestion.name, emails, member_mrn: suggestion.member_mrn }, null);
  const contact = await insertContact(ctx, fields, 'suggestion', ctx.member.id);
  await ctx.db.suggestions.update({ status: to, contact_id: contact.id }, { where: { id: suggestion.id } });
  const updated = (await ctx.db.suggestions.findById(suggestion.id))!;
  return { ...presentSuggestion(updated), contact: (await presentContacts(ctx, [contact]))[0] };
}

/** Dismisses a suggestion: it leaves the list and is not suggested again (later interactions only count). 409 naming both states when no longer pending. */
export async function dismissSuggestion(ctx: ContactsContext, suggestionId: string) {
  const suggestion = await requireOwnSuggestion(ctx, suggestionId);
  const { to } = suggestionStatus.move(suggestion.status, 'dismiss');
  await ctx.db.suggestions.update({ status: to }, { where: { id: suggestion.id } });
  return presentSuggestion((await ctx.db.suggestions.findById(suggestion.id))!);
}

/**
 * `core.account.member.removed`: the member's own suggestions go (nobody can review them), and so
 * do the pending suggestions of them to others (they are no longer someone one works with).
 * Contacts naming the member stay: a former colleague is still a person. Idempotent.
 */
export async function forgetMember(ctx: ContactsEventContext, memberId: unknown): Promise<number> {
  const id = idFromMrn(`mrn:account:member:${String(memberId)}`, 'account', 'member');
  if (!id) return 0;
  const own = await ctx.db.suggestions.destroy({ where: { owner_id: id } });
  const about = await ctx.db.suggestions.destroy({ where: { person_key: `member:mrn:account:member:${id}`, status: 'pending' } });
  return own + about;
}
