import { ConflictError, ForbiddenError, InvalidError, likePattern, NotFoundError, Op } from '@wpk/sdk';
import { resource, type FeedsContext } from '../kit.js';
import { audienceDepartment, hiddenChannels } from './audience.js';
import { reindexChannel } from './reindex.js';
import type { Channel, ChannelKind, PlatformRole, PostPolicy } from '../models/index.js';

/** What a create or an update may set. */
export interface ChannelInput {
  name?: string;
  kind?: ChannelKind;
  department_mrn?: string | null;
  description?: string | null;
  post_policy?: PostPolicy;
  post_roles?: PlatformRole[];
}

/** Channels of the workspace: reads and writes (no events: a channel is the feed's own arrangement). */
export const channels = resource({
  model: 'channels',
  label: 'Channel',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name'],
});

const DEPARTMENT_MRN = /^mrn:workers:department:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The channel's fields made consistent: a department channel names its department, others none; `roles` lists at least one role. */
function settle(next: Required<ChannelInput>): Required<ChannelInput> {
  if (next.kind === 'department') {
    if (!next.department_mrn) throw new InvalidError('department_mrn: a department channel names its department (mrn:workers:department:{id})', { field: 'department_mrn' });
    if (!DEPARTMENT_MRN.test(next.department_mrn)) throw new InvalidError(`department_mrn: ${next.department_mrn} is no mrn:workers:department:{id}`, { field: 'department_mrn' });
  } else if (next.department_mrn) {
    throw new InvalidError(`department_mrn: only a department channel names a department (this one is a ${next.kind} channel)`, { field: 'department_mrn' });
  }
  const roles = [...new Set(next.post_roles)];
  if (next.post_policy === 'roles' && roles.length === 0) throw new InvalidError('post_roles: a channel whose post_policy is roles lists at least one role', { field: 'post_roles' });
  return { ...next, department_mrn: next.department_mrn || null, description: next.description?.trim() || null, post_roles: next.post_policy === 'roles' ? roles : [] };
}

/** Refuses a name another channel has (ignoring case), under a lock on the name. */
async function assertNameFree(ctx: FeedsContext, name: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`channels:${name.toLowerCase()}`);
  const rows = await ctx.db.channels.findAll({ where: { name: { [Op.iLike]: likePattern(name, 'exact') }, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  const clash = rows.find((row) => row.name.toLowerCase() === name.toLowerCase());
  if (clash) throw new ConflictError(`Channel ${clash.id} is already named ${clash.name}`);
}

/** True when the calling member may post in the channel. */
export function mayPost(ctx: FeedsContext, channel: Channel): boolean {
  const role = ctx.member.platform_role;
  if (channel.post_policy === 'everyone') return true;
  if (channel.post_policy === 'admins') return role === 'owner' || role === 'admin';
  return channel.post_roles.includes(role);
}

/** 403 unless the calling member may post in the channel. */
export function assertMayPost(ctx: FeedsContext, channel: Channel): void {
  if (!mayPost(ctx, channel)) {
    const who = channel.post_policy === 'admins' ? 'owners and admins' : `the roles ${channel.post_roles.join(', ')}`;
    throw new ForbiddenError(`Only ${who} may post in channel ${channel.name}`);
  }
}

/** The channel with this id if the caller reads it (a department channel only for its audience, owners and admins), else 404. */
export async function requireVisibleChannel(ctx: FeedsContext, channelId: string, lock = false) {
  const channel = await channels.require(ctx, channelId, lock ? { lock: 'update' } : {});
  if ((await hiddenChannels(ctx)).includes(channel.id)) throw new NotFoundError(`Channel ${channelId} not found`);
  return channel;
}

/** One page of the channels the caller reads, by name; `q` matches the name, `kind` keeps one kind. */
export async function listChannels(ctx: FeedsContext, q?: string, kind?: ChannelKind) {
  const hidden = await hiddenChannels(ctx);
  return channels.list(ctx, { q, where: { ...(kind ? { kind } : {}), ...(hidden.length ? { id: { [Op.notIn]: hidden } } : {}) } });
}

/** Creates a channel. */
export async function createChannel(ctx: FeedsContext, input: ChannelInput & { name: string; kind: ChannelKind }): Promise<Channel> {
  const next = settle({ name: input.name, kind: input.kind, department_mrn: input.department_mrn ?? null, description: input.description ?? null, post_policy: input.post_policy ?? 'everyone', post_roles: input.post_roles ?? [] });
  await assertNameFree(ctx, next.name, null);
  return channels.create(ctx, { ...next, created_by: ctx.member.id });
}

/** Changes the given fields of a channel. */
export async function updateChannel(ctx: FeedsContext, channelId: string, input: ChannelInput): Promise<Channel> {
  const channel = await requireVisibleChannel(ctx, channelId, true);
  const kind = input.kind ?? channel.kind;
  const next = settle({
    name: input.name ?? channel.name,
    kind,
    department_mrn: input.department_mrn !== undefined ? input.department_mrn : kind === 'department' ? channel.department_mrn : null,
    description: input.description !== undefined ? input.description : channel.description,
    post_policy: input.post_policy ?? channel.post_policy,
    post_roles: input.post_roles ?? channel.post_roles,
  });
  if (next.name.toLowerCase() !== channel.name.toLowerCase()) await assertNameFree(ctx, next.name, channel.id);
  const { row } = await channels.patch(ctx, channel, next);
  // The posts follow the channel's audience (and leave or join the search index with it).
  if (audienceDepartment(row) !== audienceDepartment(channel)) await reindexChannel(ctx, row.id, audienceDepartment(row));
  return row;
}

/** Deletes a channel that has no posts (409 otherwise: archive or move them first). */
export async function deleteChannel(ctx: FeedsContext, channelId: string) {
  const channel = await requireVisibleChannel(ctx, channelId, true);
  const count = await ctx.db.posts.count({ where: { channel_id: channel.id } });
  if (count > 0) throw new ConflictError(`Channel ${channel.name} has ${count} post${count === 1 ? '' : 's'}; a channel with posts cannot be deleted`);
  await channels.remove(ctx, channel);
  return { id: channel.id, deleted: true };
}
