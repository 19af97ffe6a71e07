/** Spaces and the members' roles on them. */
import { InvalidError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Role, Space, SpaceMember } from '../models/index.js';
import { requireSpace, roleOn, type Access } from './access.js';

/** A space as answered, with the caller's role. */
export function presentSpace(space: Space, role: Access) {
  return {
    id: space.id,
    name: space.name,
    description: space.description,
    default_role: space.default_role,
    role,
    created_by: space.created_by,
    publication: space.published ? { page_id: space.published_page_id, published_at: space.published_at } : null,
    revision: space.revision,
    created_at: space.created_at,
    updated_at: space.updated_at,
  };
}

/** A member's role as answered. */
export const presentMember = (row: SpaceMember) => ({ space_id: row.space_id, member_id: row.member_id, role: row.role });

/** The spaces the caller has a role on, by name. */
export async function listSpaces(ctx: Ctx) {
  const all = await ctx.db.spaces.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
  const visible = [];
  for (const space of all) {
    const role = await roleOn(ctx, space);
    if (role !== 'none') visible.push(presentSpace(space, role));
  }
  return visible;
}

/** A new space; its maker is its admin. Emits space.created. */
export async function createSpace(ctx: Ctx, input: { name: string; description?: string; default_role?: 'none' | 'view' | 'comment' | 'edit' }) {
  const space = await ctx.db.spaces.create({ name: input.name, description: input.description ?? '', default_role: input.default_role ?? 'view', created_by: ctx.member.id, published: false, published_page_id: null, published_at: null, revision: 1 });
  ctx.events.stage('core.wiki.space.created', { space_id: space.id, name: space.name, default_role: space.default_role as 'none' | 'view' | 'comment' | 'edit', by: ctx.member.mrn });
  return presentSpace(space, 'admin');
}

/** Renames a space, changes its description or its default role (admins). */
export async function updateSpace(ctx: Ctx, spaceId: string, input: { name?: string; description?: string; default_role?: Access }) {
  const { space, role } = await requireSpace(ctx, spaceId, 'admin', 'update');
  const changes: Partial<Space> = {};
  for (const key of ['name', 'description', 'default_role'] as const) if (input[key] !== undefined && input[key] !== space[key]) changes[key] = input[key];
  if (!Object.keys(changes).length) return presentSpace(space, role);
  await ctx.db.spaces.update({ ...changes, revision: space.revision + 1 }, { where: { id: space.id } });
  return presentSpace({ ...space, ...changes, revision: space.revision + 1, updated_at: ctx.now() }, role);
}

/** Deletes a space with its pages (admins); their search entries go too. */
export async function deleteSpace(ctx: Ctx, spaceId: string) {
  const { space } = await requireSpace(ctx, spaceId, 'admin', 'update');
  for (const page of await ctx.db.pages.findAll({ where: { space_id: space.id }, attributes: ['id'] })) ctx.search.remove('page', page.id);
  await ctx.db.spaces.destroy({ where: { id: space.id } });
  return { id: space.id, deleted: true as const };
}

/** The members' own roles on a space, in the order given when set. */
export async function listMembers(ctx: Ctx, spaceId: string) {
  const { space } = await requireSpace(ctx, spaceId, 'view');
  return ctx.db.spaceMembers.findAll({ where: { space_id: space.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
}

/**
 * Sets the members' own roles on a space: the list replaces the one before (admins). Each member
 * must be of the workspace and named once; the default role applies to everyone else.
 */
export async function setMembers(ctx: Ctx, spaceId: string, members: Array<{ member_id: string; role: Role }>) {
  const { space } = await requireSpace(ctx, spaceId, 'admin', 'update');
  const seen = new Set<string>();
  members.forEach((entry, at) => {
    const id = entry.member_id.toLowerCase();
    if (seen.has(id)) throw new InvalidError(`members[${at}].member_id: member ${id} is named twice`, { field: `members.${at}.member_id` });
    seen.add(id);
  });
  await ctx.members.require([...seen], 'members');
  const before = await ctx.db.spaceMembers.findAll({ where: { space_id: space.id } });
  const wanted = new Map(members.map((entry) => [entry.member_id.toLowerCase(), entry.role]));
  for (const row of before) {
    const role = wanted.get(row.member_id);
    if (role === undefined) await ctx.db.spaceMembers.destroy({ where: { id: row.id } });
    else if (role !== row.role) await ctx.db.spaceMembers.update({ role }, { where: { id: row.id } });
  }
  const kept = new Set(before.map((row) => row.member_id));
  for (const [memberId, role] of wanted) if (!kept.has(memberId)) await ctx.db.spaceMembers.create({ space_id: space.id, member_id: memberId, role });
  return members.map((entry) => ({ space_id: space.id, member_id: entry.member_id.toLowerCase(), role: entry.role }));
}
