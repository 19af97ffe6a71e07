import { ConflictError, InvalidError, Op } from '@wpk/sdk';
import type { Contact, ContactKey } from '../models/index.js';
import { cleanTags, fieldsOf, presentContacts, removeContact, requireContact, resolveFields, writeContact, type ContactFields } from './contacts.js';
import type { ContactsContext } from '../kit.js';
import { contactMrn } from './present.js';

/** Why contacts are grouped: the keys they share (an email, a phone, a member, the same name). */
export interface DuplicateReason {
  kind: ContactKey['kind'];
  value: string;
}

/**
 * Groups of contacts that look like one person: contacts sharing an email, a phone number (by
 * its digits), a member, or the same full name (ignoring case and spacing) are in one group,
 * transitively (A shares an email with B, B a phone with C: one group of three). Groups come
 * ordered by their first contact's display name; within a group, oldest contact first (the
 * natural one to keep). Paginated by group.
 */
export async function findDuplicates(ctx: ContactsContext) {
  const keys = await ctx.db.contactKeys.findAll({ order: [['kind', 'ASC'], ['value', 'ASC'], ['contact_id', 'ASC']] });
  const byKey = new Map<string, string[]>();
  for (const key of keys) byKey.set(`${key.kind}\u0000${key.value}`, [...(byKey.get(`${key.kind}\u0000${key.value}`) ?? []), key.contact_id]);
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const reasons = new Map<string, DuplicateReason[]>();
  const shared = [...byKey.entries()].filter(([, ids]) => ids.length > 1);
  for (const [, ids] of shared) for (const id of ids) if (!parent.has(id)) parent.set(id, id);
  for (const [, ids] of shared) for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]));
  for (const [key, ids] of shared) {
    const [kind, value] = key.split('\u0000') as [ContactKey['kind'], string];
    const root = find(ids[0]);
    reasons.set(root, [...(reasons.get(root) ?? []), { kind, value }]);
  }
  const members = new Map<string, string[]>();
  for (const id of parent.keys()) members.set(find(id), [...(members.get(find(id)) ?? []), id]);
  const ids = [...members.values()].flat();
  const rows = ids.length ? await ctx.db.contacts.findAll({ where: { id: { [Op.in]: ids } } }) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const oldestFirst = (a: Contact, b: Contact) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id);
  const groups = [...members.entries()]
    .map(([root, group]) => ({ contacts: group.map((id) => byId.get(id)!).filter(Boolean).sort(oldestFirst), reasons: reasons.get(root) ?? [] }))
    .filter((group) => group.contacts.length > 1)
    .sort((a, b) => a.contacts[0].display_name.localeCompare(b.contacts[0].display_name) || a.contacts[0].id.localeCompare(b.contacts[0].id));
  const page = groups.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  const data = [];
  for (const group of page) {
    const presented = await presentContacts(ctx, group.contacts);
    data.push({ contact_ids: group.contacts.map((contact) => contact.id), reasons: group.reasons, contacts: presented });
  }
  return { rows: data, count: groups.length };
}

/** Appends `more` to `list`, skipping entries whose `key` is already there. */
function union<T>(list: T[], more: T[], key: (item: T) => string): T[] {
  const seen = new Set(list.map(key));
  return [...list, ...more.filter((item) => !seen.has(key(item)) && seen.add(key(item)))];
}

/**
 * Merges `sourceIds` into the contact `targetId` (Google Contacts' and Nextcloud's merge): the
 * target keeps its own values and takes each empty one from the sources in the order given;
 * emails, phones, addresses and tags are the union (without repeats); notes are joined by a
 * blank line. The sources are deleted; suggestions that had become them now point at the
 * target. One `contact.merged` event (and none per source). 400 for a source that is the target
 * or named twice, or a merged list over its bound; 404 for an unknown contact.
 */
export async function mergeContacts(ctx: ContactsContext, targetId: string, sourceIds: string[]) {
  if (new Set(sourceIds).size !== sourceIds.length) throw new InvalidError('contact_ids must not name a contact twice');
  if (sourceIds.includes(targetId)) throw new InvalidError(`contact_ids must not include the contact merged into (${targetId})`);
  const target = await requireContact(ctx, targetId, 'update');
  const sources: Contact[] = [];
  for (const id of sourceIds) sources.push(await requireContact(ctx, id, 'update'));
  const next: ContactFields = fieldsOf(target);
  const scalar = ['given_name', 'family_name', 'middle_name', 'prefix', 'suffix', 'nickname', 'organization', 'job_title', 'company_mrn', 'member_mrn', 'birthday'] as const;
  for (const source of sources) {
    for (const field of scalar) if (next[field] === null && source[field] !== null) (next as Record<string, unknown>)[field] = source[field];
    next.emails = union(next.emails, source.emails, (email) => email.value.toLowerCase());
    next.phones = union(next.phones, source.phones, (phone) => phone.value.replace(/\D/g, '') || phone.value);
    next.addresses = union(next.addresses, source.addresses, (address) => JSON.stringify({ ...address, type: undefined }).toLowerCase());
    next.tags = cleanTags([...next.tags, ...source.tags]);
    if (source.notes && !next.notes.includes(source.notes)) next.notes = [next.notes, source.notes].filter(Boolean).join('\n\n');
  }
  for (const [field, bound] of [['emails', 20], ['phones', 20], ['addresses', 10], ['tags', 30]] as const) {
    if (next[field].length > bound) throw new ConflictError(`The merged contact would have ${next[field].length} ${field}, more than ${bound}`);
  }
  if (next.notes.length > 10000) throw new ConflictError(`The merged contact's notes would be ${next.notes.length} characters, more than 10000`);
  // Company and member come from contacts already validated; re-resolving keeps the display name rule.
  const fields = await resolveFields(ctx, { ...next, company_mrn: undefined }, fieldsOf(target));
  for (const source of sources) {
    await ctx.db.suggestions.update({ contact_id: target.id }, { where: { contact_id: source.id } });
    await removeContact(ctx, source);
  }
  const merged = await writeContact(ctx, target, { ...fields, company_mrn: next.company_mrn }, ctx.member.id, { silent: true });
  ctx.events.stage('core.contacts.contact.merged', { contact_id: target.id, contact_mrn: contactMrn(target.id), display_name: merged.display_name, merged_ids: sources.map((source) => source.id), merged_mrns: sources.map((source) => contactMrn(source.id)), merged_by: ctx.member.id });
  return merged;
}
