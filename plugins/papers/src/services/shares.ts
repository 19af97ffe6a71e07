import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, InvalidError, memberMrn, NotFoundError, richTextToHtml, safeHref, type DirectoryMember, type RichTextNode } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import { paperDocuments } from './documents.js';
import { DATA_IMAGE, inlineImages } from './images.js';
import type { Link, Paper, ShareLevel } from '../models/index.js';
import { ensureLevel, levelOf, mayOpen, requirePaper } from './access.js';
import { membersOf, requireDepartments } from './departments.js';
import { indexPaper } from './search-documents.js';

export interface ShareInput {
  principal_type: 'member' | 'role' | 'department';
  principal_id: string;
  level: ShareLevel;
}

type Principal = Pick<ShareInput, 'principal_type' | 'principal_id'>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A paper's shares (members first, then roles) and its live links; the owner and anyone it is shared with may read them. */
export async function readShares(ctx: Ctx, paperId: string) {
  const { paper, level } = await requirePaper(ctx, paperId);
  const shares = await ctx.db.shares.findAll({ where: { paper_id: paper.id }, order: [['principal_type', 'ASC'], ['principal_id', 'ASC']] });
  const links = level === 'owner' ? await ctx.db.links.findAll({ where: { paper_id: paper.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] }) : [];
  return { paper, shares, links };
}

/**
 * Replaces a paper's shares (its owner): each member (an active member of the workspace) or role
 * at most once. `core.papers.paper.shared` lists who was added or changed, once, when anything
 * changed; members who lost access are dropped from the paper's live channel.
 */
export async function replaceShares(ctx: Ctx, paperId: string, input: ShareInput[]) {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true });
  ensureLevel(ctx, level, 'owner', 'share');
  const seen = new Set<string>();
  input.forEach((share, index) => {
    const key = `${share.principal_type}:${share.principal_id}`;
    if (seen.has(key)) throw new InvalidError(`shares[${index}]: ${key} is named twice`);
    seen.add(key);
  });
  const members = input.filter((share) => share.principal_type === 'member').map((share) => share.principal_id);
  if (members.length > 0) await ctx.members.require(members, 'shares.principal_id');
  if (members.includes(paper.owner_id)) throw new InvalidError('shares: the paper\'s owner needs no share');
  await requireDepartments(ctx, input);
  const before = await ctx.db.shares.findAll({ where: { paper_id: paper.id } });
  const old = new Map(before.map((share) => [`${share.principal_type}:${share.principal_id}`, share.level]));
  const changed = input.filter((share) => old.get(`${share.principal_type}:${share.principal_id}`) !== share.level);
  const removed = before.filter((share) => !seen.has(`${share.principal_type}:${share.principal_id}`));
  if (changed.length === 0 && removed.length === 0) return readShares(ctx, paper.id);
  await ctx.db.shares.destroy({ where: { paper_id: paper.id } });
  for (const share of input) await ctx.db.shares.create({ paper_id: paper.id, ...share });
  ctx.events.stage('core.papers.paper.shared', { paper_id: paper.id, shares: changed.map((share) => ({ principal_type: share.principal_type, principal_id: share.principal_id, level: share.level })), shared_by: memberMrn(ctx.member.id) });
  const revoked = await losers(ctx, paper, removed, input);
  ctx.live.publish(`papers/${paper.id}`, 'paper.shared', { id: paper.id }, revoked.length > 0 ? { revoke: revoked } : undefined);
  await indexPaper(ctx, paper);
  return readShares(ctx, paper.id);
}

/**
 * The members a removed share named (a member; a role's members; a department's, with those below
 * it) who may no longer open the paper with the shares that stay (`mayOpen`, the channel's rule
 * for someone else): they lose its live channel. One still reached another way keeps it.
 */
async function losers(ctx: Ctx, paper: Paper, removed: Principal[], kept: Principal[]): Promise<string[]> {
  if (removed.length === 0) return [];
  const named = new Map<string, DirectoryMember>();
  const byId = [...removed.filter((share) => share.principal_type === 'member').map((share) => share.principal_id), ...(await membersOf(ctx, removed.filter((share) => share.principal_type === 'department').map((share) => share.principal_id)))];
  for (const member of (await ctx.members.getMany(byId)).values()) named.set(member.id, member);
  const roles = new Set(removed.filter((share) => share.principal_type === 'role').map((share) => share.principal_id));
  for (let offset = 0; roles.size > 0; offset += 100) {
    const page = await ctx.members.list({ offset, limit: 100 });
    for (const member of page.rows) if (roles.has(member.platform_role)) named.set(member.id, member);
    if (page.rows.length < 100) break;
  }
  const lost: string[] = [];
  for (const member of named.values()) if (!(await mayOpen(ctx, paper, kept, member))) lost.push(member.id);
  return lost;
}

/** A token link to a paper (its owner): the token is answered once and stored only as its hash. */
export async function createLink(ctx: Ctx, paperId: string, input: { level: ShareLevel; expires_at?: string | null; anonymous?: boolean }) {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'owner', 'share');
  if (input.anonymous && input.level !== 'view') throw new InvalidError('anonymous: an anonymous link is view only (level view)');
  const max = ctx.settings.max_link_days * 86_400_000;
  const expires = input.expires_at ? new Date(input.expires_at) : new Date(Date.now() + max);
  if (expires.getTime() <= Date.now()) throw new InvalidError('expires_at: must be in the future');
  if (expires.getTime() > Date.now() + max) throw new InvalidError(`expires_at: a link lasts at most ${ctx.settings.max_link_days} days`);
  const token = randomBytes(24).toString('base64url');
  const link = await ctx.db.links.create({ paper_id: paper.id, token_hash: hashToken(token), level: input.level, expires_at: expires, created_by: ctx.member.id, anonymous: input.anonymous ?? false });
  return { link, token, url: link.anonymous ? sharedPageUrl(ctx.workspace.origin, token) : undefined };
}

/** Withdraws a link (the paper's owner). */
export async function deleteLink(ctx: Ctx, linkId: string) {
  const link = await ctx.db.links.findById(linkId);
  if (!link) throw new NotFoundError(`Link ${linkId} not found`);
  const paper = await ctx.db.papers.findById(link.paper_id);
  if (!paper || (await levelOf(ctx, paper)) !== 'owner') throw new NotFoundError(`Link ${linkId} not found`);
  await ctx.db.links.destroy({ where: { id: link.id } });
  return { id: link.id, deleted: true };
}

/**
 * Opens a paper by a link's token: the caller (a member of the workspace) gets a share at the
 * link's level (a higher one they hold stays). An unknown, withdrawn or expired token: 404.
 */
export async function redeemLink(ctx: Ctx, token: string) {
  const link: Link | null = await ctx.db.links.findOne({ where: { token_hash: hashToken(token) } });
  if (!link || (link.expires_at && new Date(link.expires_at).getTime() <= Date.now())) throw new NotFoundError('This link is unknown, withdrawn or expired');
  const paper = await ctx.db.papers.findById(link.paper_id, { lock: 'update' });
  if (!paper || paper.status !== 'active') throw new NotFoundError('This link is unknown, withdrawn or expired');
  const current = await levelOf(ctx, paper);
  const order = ['view', 'comment', 'edit', 'owner'];
  if (current && order.indexOf(current) >= order.indexOf(link.level)) return { paper, level: current };
  if (paper.owner_id === ctx.member.id) throw new ConflictError('You own this paper');
  await ctx.db.shares.upsert({ paper_id: paper.id, principal_type: 'member', principal_id: ctx.member.id, level: link.level }, { conflictFields: ['paper_id', 'principal_type', 'principal_id'] });
  ctx.events.stage('core.papers.paper.shared', { paper_id: paper.id, shares: [{ principal_type: 'member', principal_id: ctx.member.id, level: link.level }], shared_by: memberMrn(link.created_by) });
  await indexPaper(ctx, paper);
  return { paper, level: link.level };
}

/**
 * The paper behind an anonymous link, read-only, for anyone holding it (no sign-in): its title,
 * its content as HTML (escaped, only safe links) and as ProseMirror JSON, its images inlined as
 * data URLs, and the link's expiry. The front-end's public page (`/public/apps/papers/shared.html`)
 * shows it. Unknown, withdrawn, expired, not anonymous, or the paper trashed: the same 404.
 */
export async function sharedPaper(ctx: AnyCtx, token: string) {
  const link = await ctx.db.links.findOne({ where: { token_hash: hashToken(token), anonymous: true } });
  const paper = link && !(link.expires_at && new Date(link.expires_at).getTime() <= Date.now()) ? await ctx.db.papers.findById(link.paper_id) : null;
  if (!link || !paper || paper.status !== 'active') throw new NotFoundError('Link not found or expired');
  const stored = ((await paperDocuments.snapshot(ctx, paper.id))?.content ?? { type: 'doc' }) as RichTextNode;
  const content = await inlineImages(ctx, paper.id, stored);
  const html = richTextToHtml(content, (target) => (DATA_IMAGE.test(target) ? target : safeHref(target)));
  return { title: paper.title, html, content, expires_at: link.expires_at ? new Date(link.expires_at).toISOString() : null };
}

/** An anonymous link's public page: a static page of the front-end that reads GET /papers/shared/{token}. */
export const sharedPageUrl = (origin: string, token: string) => `${origin}/public/apps/papers/shared.html?token=${token}`;
