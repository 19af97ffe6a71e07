import { ConflictError, conflictOnDuplicate, InvalidError, NotFoundError } from '@wpk/sdk';
import type { Group, GroupMember, Tier } from '../models/index.js';
import { localPart } from './addresses.js';
import type { MailBaseContext, MailContext } from '../kit.js';
import { assertAddressFree } from './mailboxes.js';
import { groupResource } from './resources.js';

/** A group as the API shows it. */
export function presentGroup(group: Group) {
  return {
    id: group.id,
    domain_id: group.domain_id,
    local_part: group.local_part,
    address: group.address,
    name: group.name,
    description: group.description,
    who_can_post: group.who_can_post,
    created_by: group.created_by,
    created_at: group.created_at,
    updated_at: group.updated_at,
  };
}

/** A group member as the API shows it. */
export function presentGroupMember(member: GroupMember) {
  return { group_id: member.group_id, member_id: member.member_id, tier: member.tier, added_by: member.added_by, created_at: member.created_at, updated_at: member.updated_at };
}

/** The group, or 404. */
export function requireGroup(ctx: MailBaseContext, id: string, lock = false): Promise<Group> {
  return groupResource.require(ctx, id, lock ? { lock: 'update' } : {});
}

/** Lists the groups, by address. */
export async function listGroups(ctx: MailContext, query: { domain_id?: string }) {
  return ctx.db.groups.findAndCountAll({ where: query.domain_id ? { domain_id: query.domain_id } : {}, order: [['address', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** Creates a group on a hosted domain; its creator becomes its owner. */
export async function createGroup(ctx: MailContext, input: { domain_id: string; local_part: string; name: string; description?: string; who_can_post?: Group['who_can_post'] }): Promise<Group> {
  const domain = await ctx.db.domains.findById(input.domain_id);
  if (!domain) throw new InvalidError(`domain_id ${input.domain_id} is not a domain of this workspace`);
  const local = localPart(input.local_part);
  const address = `${local}@${domain.name}`;
  await assertAddressFree(ctx, address);
  const group = await conflictOnDuplicate(
    ctx.db.groups.create({ domain_id: domain.id, local_part: local, address, name: input.name, description: input.description ?? '', who_can_post: input.who_can_post ?? 'anyone', created_by: ctx.member.id }),
    `${address} is already a mailbox or a group`,
  );
  await ctx.db.groupMembers.create({ group_id: group.id, member_id: ctx.member.id, tier: 'owner', added_by: ctx.member.id });
  ctx.events.stage('core.mail.group.created', { group_id: group.id, address, name: group.name, created_by: ctx.member.id });
  return group;
}

/** Renames or re-describes a group, or changes who may post. */
export async function updateGroup(ctx: MailContext, id: string, input: { name?: string; description?: string; who_can_post?: Group['who_can_post'] }): Promise<Group> {
  const group = await requireGroup(ctx, id, true);
  const changes: Partial<Group> = {};
  for (const field of ['name', 'description', 'who_can_post'] as const) {
    if (input[field] !== undefined && input[field] !== group[field]) (changes as Record<string, unknown>)[field] = input[field];
  }
  if (Object.keys(changes).length === 0) return group;
  await ctx.db.groups.update(changes, { where: { id } });
  ctx.events.stage('core.mail.group.updated', { group_id: id, changed_fields: Object.keys(changes), updated_by: ctx.member.id });
  return { ...group, ...changes, updated_at: new Date() };
}

/** Deletes a group with its members and messages. */
export async function deleteGroup(ctx: MailContext, id: string): Promise<void> {
  const group = await requireGroup(ctx, id, true);
  const messages = await ctx.db.messages.findAll({ where: { group_id: id }, attributes: ['id'] });
  for (const message of messages) ctx.search.remove('message', message.id);
  await ctx.db.groups.destroy({ where: { id } });
  ctx.events.stage('core.mail.group.deleted', { group_id: id, address: group.address, deleted_by: ctx.member.id });
}

/** The group's members, owners first, then by when they joined. */
export async function listGroupMembers(ctx: MailContext, groupId: string) {
  await requireGroup(ctx, groupId);
  const rows = await ctx.db.groupMembers.findAll({ where: { group_id: groupId }, order: [['created_at', 'ASC'], ['member_id', 'ASC']] });
  const rank: Record<Tier, number> = { owner: 0, manager: 1, member: 2 };
  const sorted = rows.sort((a, b) => rank[a.tier] - rank[b.tier]);
  const page = sorted.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  return { rows: page, count: rows.length };
}

async function assertKeepsOwner(ctx: MailContext, groupId: string, leaving: GroupMember): Promise<void> {
  if (leaving.tier !== 'owner') return;
  const owners = await ctx.db.groupMembers.count({ where: { group_id: groupId, tier: 'owner' } });
  if (owners <= 1) throw new ConflictError('A group keeps at least one owner');
}

/** Adds a member (the route checked they are one of the workspace now) to a group at a tier (default member). */
export async function addGroupMember(ctx: MailContext, groupId: string, given: { member_id: string; tier?: Tier }): Promise<GroupMember> {
  const input = { ...given, member_id: given.member_id.toLowerCase() };
  await requireGroup(ctx, groupId, true);
  if (await ctx.db.groupMembers.findOne({ where: { group_id: groupId, member_id: input.member_id } })) throw new ConflictError('The member is already in the group');
  const row = await conflictOnDuplicate(ctx.db.groupMembers.create({ group_id: groupId, member_id: input.member_id, tier: input.tier ?? 'member', added_by: ctx.member.id }), 'The member is already in the group');
  ctx.events.stage('core.mail.group_member.added', { group_id: groupId, member_id: row.member_id, tier: row.tier, added_by: ctx.member.id });
  return row;
}

/** The group's member row, or 404. */
async function requireGroupMember(ctx: MailContext, groupId: string, memberId: string): Promise<GroupMember> {
  await requireGroup(ctx, groupId, true);
  const row = await ctx.db.groupMembers.findOne({ where: { group_id: groupId, member_id: memberId }, lock: 'update' });
  if (!row) throw new NotFoundError('Group member not found');
  return row;
}

/** Changes a member's tier; the last owner cannot step down. */
export async function updateGroupMember(ctx: MailContext, groupId: string, memberId: string, tier: Tier): Promise<GroupMember> {
  const row = await requireGroupMember(ctx, groupId, memberId);
  if (row.tier === tier) return row;
  await assertKeepsOwner(ctx, groupId, row);
  await ctx.db.groupMembers.update({ tier }, { where: { group_id: groupId, member_id: memberId } });
  ctx.events.stage('core.mail.group_member.updated', { group_id: groupId, member_id: memberId, tier, from_tier: row.tier, updated_by: ctx.member.id });
  return { ...row, tier, updated_at: new Date() };
}

/** Removes a member from a group; the last owner cannot leave. */
export async function removeGroupMember(ctx: MailContext, groupId: string, memberId: string): Promise<void> {
  const row = await requireGroupMember(ctx, groupId, memberId);
  await assertKeepsOwner(ctx, groupId, row);
  await ctx.db.groupMembers.destroy({ where: { group_id: groupId, member_id: memberId } });
  ctx.events.stage('core.mail.group_member.removed', { group_id: groupId, member_id: memberId, removed_by: ctx.member.id });
}
