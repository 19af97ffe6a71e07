import { isUuid } from '@wpk/sdk';
import { emailKey } from './contacts.js';
import type { ContactsEventContext } from '../kit.js';
import { eventInstant, firstDelivery, MAX_PARTICIPANTS } from './suggestions.js';

/** A person seen in a mail event: an address, and a display name when the event carries one. */
export interface MailPerson {
  email: string;
  name?: string | null;
}

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/**
 * Addresses of machines rather than people (`no-reply@…`, bounces, list robots): never suggested,
 * as Google's "Other contacts" leaves automated senders out.
 */
const AUTOMATED = /^(no-?reply|do-?not-?reply|mailer-daemon|postmaster|bounces?|notifications?|listserv|majordomo)([+._-].*)?$/i;

/** The address as the app keys it (lower case), or null when it is no address a person uses. */
export function personAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const address = emailKey(value);
  if (address.length > 320 || !ADDRESS.test(address)) return null;
  return AUTOMATED.test(address.split('@')[0]) ? null : address;
}

/** `core.mail.mailbox.created` / `.assigned`: the mailbox's address and member (none: nobody). Idempotent. */
export async function rememberMailbox(ctx: ContactsEventContext, payload: Record<string, unknown>): Promise<boolean> {
  const id = typeof payload.mailbox_id === 'string' && isUuid(payload.mailbox_id) ? payload.mailbox_id.toLowerCase() : null;
  const address = typeof payload.address === 'string' ? emailKey(payload.address).slice(0, 320) : null;
  if (!id || !address) return false;
  const member = typeof payload.member_id === 'string' && isUuid(payload.member_id) ? payload.member_id.toLowerCase() : null;
  await ctx.db.mailboxCopies.upsert({ mailbox_id: id, address, member_id: member }, { conflictFields: ['mailbox_id'] });
  return true;
}

/** `core.mail.mailbox.deleted`: the copy goes. */
export async function forgetMailbox(ctx: ContactsEventContext, payload: Record<string, unknown>): Promise<void> {
  if (typeof payload.mailbox_id === 'string' && isUuid(payload.mailbox_id)) await ctx.db.mailboxCopies.destroy({ where: { mailbox_id: payload.mailbox_id.toLowerCase() } });
}

/** The member a mailbox is assigned to, from the copy (null: unknown mailbox or nobody's). */
async function mailboxMember(ctx: ContactsEventContext, mailboxId: unknown): Promise<string | null> {
  if (typeof mailboxId !== 'string' || !isUuid(mailboxId)) return null;
  return (await ctx.db.mailboxCopies.findOne({ where: { mailbox_id: mailboxId.toLowerCase() } }))?.member_id ?? null;
}

/**
 * Suggests to `owner` each of `people` who is not a contact (no contact has the address) and not
 * one of the workspace's own mailboxes: a new pending suggestion with the address and the name
 * when known, or one more interaction on the suggestion the member already has (whatever its
 * status: a dismissed one stays dismissed; a name it lacked is filled in). Returns how many
 * suggestions it touched.
 */
export async function suggestPeople(ctx: ContactsEventContext, owner: string, people: MailPerson[], at: Date): Promise<number> {
  const byAddress = new Map<string, string | null>();
  for (const person of people) {
    const address = personAddress(person.email);
    if (!address) continue;
    const name = typeof person.name === 'string' && person.name.trim() && emailKey(person.name) !== address ? person.name.trim().slice(0, 200) : null;
    if (!byAddress.has(address) || (name && !byAddress.get(address))) byAddress.set(address, name);
  }
  if (byAddress.size === 0) return 0;
  const addresses = [...byAddress.keys()];
  const known = new Set((await ctx.db.contactKeys.findAll({ where: { kind: 'email', value: addresses } })).map((key) => key.value));
  const ours = new Set((await ctx.db.mailboxCopies.findAll({ where: { address: addresses } })).map((mailbox) => mailbox.address));
  let touched = 0;
  for (const [address, name] of byAddress) {
    if (known.has(address) || ours.has(address)) continue;
    const personKey = `email:${address}`;
    await ctx.lock(`suggestion:${owner}:${personKey}`);
    const row = await ctx.db.suggestions.findOne({ where: { owner_id: owner, person_key: personKey } });
    if (!row) {
      await ctx.db.suggestions.create({ owner_id: owner, person_key: personKey, email: address, name, sources: ['mail'], interactions: 1, last_interaction_at: at, status: 'pending' });
    } else {
      const sources = row.sources.includes('mail') ? row.sources : [...row.sources, 'mail'];
      const last = row.last_interaction_at.getTime() > at.getTime() ? row.last_interaction_at : at;
      await ctx.db.suggestions.update({ interactions: row.interactions + 1, sources, last_interaction_at: last, ...(row.name ? {} : { name }) }, { where: { id: row.id } });
    }
    touched += 1;
  }
  return touched;
}

type MailEvent = { action: string; payload: Record<string, unknown>; metadata: Record<string, unknown> };

const addressList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * `core.mail.message.received`: the member whose mailbox received it is suggested its sender (with
 * the sender's name). Group messages suggest nothing (a group's mail is everyone's and no one's).
 */
export async function onMailReceived(ctx: ContactsEventContext, event: MailEvent): Promise<number> {
  if (!ctx.settings.suggestions_enabled || event.payload.group_id) return 0;
  const owner = await mailboxMember(ctx, event.payload.account_id);
  if (!owner) return 0;
  if (!(await firstDelivery(ctx, event))) return 0;
  return suggestPeople(ctx, owner, [{ email: String(event.payload.from_address ?? ''), name: event.payload.from_name as string | undefined }], eventInstant(ctx, event));
}

/**
 * `core.mail.message.sent`: the member who sent it (`sent_by`, else the mailbox's member) is
 * suggested its recipients (to, cc, bcc), unless it went to more than MAX_PARTICIPANTS people (a
 * newsletter says nothing about whom one works with).
 */
export async function onMailSent(ctx: ContactsEventContext, event: MailEvent): Promise<number> {
  if (!ctx.settings.suggestions_enabled) return 0;
  const sender = typeof event.payload.sent_by === 'string' && isUuid(event.payload.sent_by) ? event.payload.sent_by.toLowerCase() : await mailboxMember(ctx, event.payload.account_id);
  if (!sender) return 0;
  const recipients = [...addressList(event.payload.to_addresses), ...addressList(event.payload.cc_addresses), ...addressList(event.payload.bcc_addresses)];
  if (recipients.length === 0 || recipients.length > MAX_PARTICIPANTS) return 0;
  if (!(await firstDelivery(ctx, event))) return 0;
  return suggestPeople(ctx, sender, recipients.map((email) => ({ email: String(email) })), eventInstant(ctx, event));
}
