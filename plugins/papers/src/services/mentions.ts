import { formatMrn, memberMrn, richTextPlain, type CollabResult, type DirectoryMember, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Paper } from '../models/index.js';

const MEMBER_MRN = 'mrn:account:member:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The members a document mentions (the editors' `mention` nodes, `attrs.id` a member id or MRN),
 * in the order they first appear, each with the plain text of the block holding that first mention.
 */
export function mentionsIn(content: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (node: RichTextNode, parent: RichTextNode | null) => {
    if (node.type === 'mention') {
      const raw = node.attrs?.id;
      const id = typeof raw === 'string' && raw.startsWith(MEMBER_MRN) ? raw.slice(MEMBER_MRN.length) : raw;
      if (typeof id === 'string' && UUID.test(id) && !found.has(id.toLowerCase())) found.set(id.toLowerCase(), parent ? richTextPlain(parent).replace(/\n/g, ' ') : '');
      return;
    }
    for (const child of node.content ?? []) walk(child, node);
  };
  if (content && typeof content === 'object') walk(content as RichTextNode, null);
  return found;
}

/** Whether this member may open the paper (see access.ts's `levelOf`, read for someone other than the caller). */
async function mayRead(ctx: Ctx, paper: Paper, shares: { principal_type: string; principal_id: string }[], member: DirectoryMember): Promise<boolean> {
  const lacking = await ctx.members.lacks(member.id, ['papers.papers.read', 'papers.papers.manage']);
  if (lacking === null || lacking.includes('papers.papers.read')) return false;
  if (paper.owner_id === member.id || !lacking.includes('papers.papers.manage')) return true;
  return shares.some((share) => (share.principal_type === 'member' ? share.principal_id === member.id : share.principal_id === member.platform_role));
}

/**
 * Stages one `core.member.mentioned` (source `papers`) per member the change made the paper mention
 * (absent from the snapshot before it), other than its author: only active members of the workspace
 * who may open the paper are told (the preview shows its text). Ids that name no member tell no one.
 */
export async function stagePaperMentions(ctx: Ctx, paper: Paper, result: CollabResult): Promise<void> {
  if (!result.content_changed) return;
  const before = mentionsIn(result.content_before);
  const now = mentionsIn(result.content);
  const ids = [...now.keys()].filter((id) => id !== ctx.member.id && !before.has(id));
  if (ids.length === 0) return;
  const members = await ctx.members.getMany(ids);
  const shares = await ctx.db.shares.findAll({ where: { paper_id: paper.id }, attributes: ['principal_type', 'principal_id'] });
  for (const id of ids) {
    const member = members.get(id);
    if (!member?.active || !(await mayRead(ctx, paper, shares, member))) continue;
    const text = now.get(id)!;
    const preview = text.length > 200 ? `${text.slice(0, 199)}…` : text;
    ctx.events.stage('core.member.mentioned', { source: 'papers', mentioned_mrn: memberMrn(id), mentioner_mrn: memberMrn(ctx.member.id), resource_mrn: formatMrn('papers', 'paper', paper.id), link: `/papers/${paper.id}`, preview });
  }
}
