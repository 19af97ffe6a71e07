import { ForbiddenError, NotFoundError, type AppDb, type ContextMember, type ContextMembers, type ContextPermissions, type DirectoryMember } from '@wpk/sdk';
import type { Models, Paper } from '../models/index.js';
import { departmentsOf, membersOf } from './departments.js';

/**
 * Who may do what with a paper (docs/decisions/0255-papers-permissions.md). A member's level on a
 * paper is the highest of: `owner` (they own it, or hold `papers.papers.manage`), and the levels of
 * the shares naming them or their workspace role (`owner`, `admin`, `member`). The app's keys are
 * a ceiling on top: editing needs `papers.papers.edit`, commenting `papers.comments.create`.
 * A paper one has no level on does not exist for one (404), as a trashed one does not for anyone
 * but its owner.
 */
export const LEVELS = ['view', 'comment', 'edit', 'owner'] as const;
export type Level = (typeof LEVELS)[number];
const rank = (level: Level | null) => (level ? LEVELS.indexOf(level) + 1 : 0);

/** The parts of a context the rule reads (a route's, or a live channel's check). */
export interface Caller {
  member: ContextMember;
  permissions: ContextPermissions;
  db: AppDb<Models>;
}

/**
 * Whether a share names this member: them, their workspace role (`member`: every member, owners
 * and admins too, as search's readers have it), or a department they are in (`departments`: theirs
 * and those above).
 */
export function shareNames(share: { principal_type: string; principal_id: string }, member: { id: string; platform_role: string }, departments: Set<string>): boolean {
  if (share.principal_type === 'member') return share.principal_id === member.id;
  // An owner or admin holds papers.papers.manage anyway, but not through a key or grant scoped without it.
  if (share.principal_type === 'role') return share.principal_id === 'member' || share.principal_id === member.platform_role;
  return departments.has(share.principal_id);
}

/** The caller's level on the paper, or null (no access). */
export async function levelOf(ctx: Caller, paper: Paper): Promise<Level | null> {
  if (paper.owner_id === ctx.member.id || ctx.permissions.has('papers.papers.manage')) return 'owner';
  const shares = await ctx.db.shares.findAll({ where: { paper_id: paper.id }, attributes: ['principal_type', 'principal_id', 'level'] });
  const departments = shares.some((share) => share.principal_type === 'department') ? await departmentsOf(ctx, ctx.member.id) : new Set<string>();
  let best: Level | null = null;
  for (const share of shares) {
    if (shareNames(share, ctx.member, departments) && rank(share.level) > rank(best)) best = share.level;
  }
  return best;
}

/** The paper with the caller's level, or 404 when it is not there for them (`lock`: row lock for the transaction). */
export async function requirePaper(ctx: Caller, paperId: string, options: { lock?: boolean; trashed?: boolean } = {}): Promise<{ paper: Paper; level: Level }> {
  const paper = await ctx.db.papers.findById(paperId, options.lock ? { lock: 'update' } : {});
  const level = paper ? await levelOf(ctx, paper) : null;
  if (!paper || !level || (paper.status === 'trashed' && !options.trashed)) throw new NotFoundError(`Paper ${paperId} not found`);
  return { paper, level };
}

/** Refuses (403) unless the caller's level reaches `needed` and they hold the key it asks for. */
export function ensureLevel(ctx: Caller, level: Level, needed: Level, action: string): void {
  if (rank(level) < rank(needed)) throw new ForbiddenError(`You may not ${action} this paper (it is shared with you to ${level})`);
  if (needed === 'edit' && !ctx.permissions.has('papers.papers.edit')) {
    if (ctx.permissions.has('papers.papers.suggest')) throw new ForbiddenError(`You may only suggest changes to this paper, not ${action} it: papers.papers.edit is needed`);
    throw new ForbiddenError(`You may not ${action} this paper: papers.papers.edit is needed`);
  }
  if (needed === 'comment' && !ctx.permissions.has('papers.comments.create')) throw new ForbiddenError(`You may not ${action} this paper: papers.comments.create is needed`);
}

/**
 * The paper's search readers: its owner, the members it is shared with directly or through a
 * department, and `role:owner` or `role:admin` for a share to that workspace role; null when a
 * share to the `member` role opens it to every member (`shareNames`).
 */
export async function readersOf(ctx: { db: AppDb<Models> }, paper: Paper): Promise<string[] | null> {
  const shares = await ctx.db.shares.findAll({ where: { paper_id: paper.id } });
  if (shares.some((share) => share.principal_type === 'role' && share.principal_id === 'member')) return null;
  const inDepartments = await membersOf(ctx, shares.filter((share) => share.principal_type === 'department').map((share) => share.principal_id));
  const roles = shares.filter((share) => share.principal_type === 'role').map((share) => `role:${share.principal_id}`);
  return [...new Set([...roles, paper.owner_id, ...shares.filter((share) => share.principal_type === 'member').map((share) => share.principal_id), ...inDepartments])].slice(0, 1000);
}

/** Whether `member` may open the paper (`levelOf`, read for someone other than the caller, their keys read fresh): mentions, and who loses its live channel. */
export async function mayOpen(ctx: { db: AppDb<Models>; members: ContextMembers }, paper: Paper, shares: { principal_type: string; principal_id: string }[], member: DirectoryMember): Promise<boolean> {
  const lacking = await ctx.members.lacks(member.id, ['papers.papers.read', 'papers.papers.manage']);
  if (lacking === null || lacking.includes('papers.papers.read')) return false;
  if (paper.owner_id === member.id || !lacking.includes('papers.papers.manage')) return true;
  const departments = shares.some((share) => share.principal_type === 'department') ? await departmentsOf(ctx, member.id) : new Set<string>();
  return shares.some((share) => shareNames(share, member, departments));
}
