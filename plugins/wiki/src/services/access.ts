/**
 * Who may do what in a space. A member's role is their own row on the space, else the space's
 * default role; the space's creator, and the workspace's owners and admins, are admins. A space
 * whose role for the caller is `none` does not exist for them (404).
 *
 * A page restricted to some members (restricted_to) is seen only by them and the space's admins,
 * with its subtree, unless a page below is restricted to a list of its own (the nearest list
 * rules). A page the caller sees whose parent they do not is answered with `parent_hidden`.
 */
import { ForbiddenError, NotFoundError, type AppDb, type ContextMember } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Models, Page, Role, Space } from '../models/index.js';

export type Access = Role | 'none';
const RANK: Record<Access, number> = { none: 0, view: 1, comment: 2, edit: 3, admin: 4 };
const NEEDS: Record<Role, string> = { view: 'reading', comment: 'commenting', edit: 'editing pages', admin: 'managing the space' };

type Who = { member: Pick<ContextMember, 'id' | 'platform_role'>; db: AppDb<Models> };
export type MemberCtx = AnyCtx & { member: ContextMember };

/** The caller's role on a space. */
export async function roleOn(ctx: Who, space: Space): Promise<Access> {
  if (space.created_by === ctx.member.id || ctx.member.platform_role === 'owner' || ctx.member.platform_role === 'admin') return 'admin';
  const own = await ctx.db.spaceMembers.findOne({ where: { space_id: space.id, member_id: ctx.member.id } });
  return (own?.role ?? space.default_role) as Access;
}

/** True when `role` is at least `need`. */
export const atLeast = (role: Access, need: Role) => RANK[role] >= RANK[need];

/** The space, when the caller's role on it is at least `need`: 404 when they have none, 403 when it is lower. */
export async function requireSpace(ctx: MemberCtx, spaceId: string, need: Role, lock?: 'update'): Promise<{ space: Space; role: Access }> {
  const space = await ctx.db.spaces.findById(spaceId, lock ? { lock } : {});
  if (!space) throw new NotFoundError(`Space ${spaceId} not found`);
  const role = await roleOn(ctx, space);
  if (role === 'none') throw new NotFoundError(`Space ${spaceId} not found`);
  if (!atLeast(role, need)) throw new ForbiddenError(`Your role on space ${space.name} is ${role}: ${NEEDS[need]} needs ${need}`);
  return { space, role };
}

/** The restriction that rules a page: its own list, else its nearest ancestor's; null when none. */
export function ruleOf(page: Page, byId: Map<string, Page>): string[] | null {
  for (let at: Page | undefined = page; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) if (at.restricted_to) return at.restricted_to;
  return null;
}

/** True when a member with `role` on the space sees the page. */
export function sees(memberId: string, role: Access, page: Page, byId: Map<string, Page>): boolean {
  if (role === 'none') return false;
  if (role === 'admin') return true;
  const rule = ruleOf(page, byId);
  return rule === null || rule.includes(memberId);
}

/** Every page of a space by id. */
export async function pagesOf(ctx: Pick<AnyCtx, 'db'>, spaceId: string): Promise<Map<string, Page>> {
  const rows = await ctx.db.pages.findAll({ where: { space_id: spaceId }, order: [['position', 'ASC'], ['id', 'ASC']] });
  return new Map(rows.map((row) => [row.id, row]));
}

/** The page, when the caller sees it and their role on its space is at least `need`. */
export async function requirePage(ctx: MemberCtx, pageId: string, need: Role, lock?: 'update'): Promise<{ page: Page; space: Space; role: Access; byId: Map<string, Page> }> {
  const found = await ctx.db.pages.findById(pageId, lock ? { lock } : {});
  if (!found) throw new NotFoundError(`Page ${pageId} not found`);
  const { space, role } = await requireSpace(ctx, found.space_id, 'view').catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Page ${pageId} not found`);
    throw error;
  });
  const byId = await pagesOf(ctx, space.id);
  byId.set(found.id, found);
  if (!sees(ctx.member.id, role, found, byId)) throw new NotFoundError(`Page ${pageId} not found`);
  if (!atLeast(role, need)) throw new ForbiddenError(`Your role on space ${space.name} is ${role}: ${NEEDS[need]} needs ${need}`);
  return { page: found, space, role, byId };
}
