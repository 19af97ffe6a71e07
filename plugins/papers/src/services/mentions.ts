import { commentMentions, commentPreview, formatMrn, memberMrn, richTextMentions, type CollabResult, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Comment, Paper } from '../models/index.js';
import { mayOpen } from './access.js';

/**
 * Stages one `core.member.mentioned` (source `papers`) per member of `ids` other than the author:
 * only active members of the workspace who may open the paper are told (the preview shows its
 * text). Ids that name no member tell no one.
 */
async function tell(ctx: Ctx, paper: Paper, ids: string[], site: { resourceMrn: string; link: string; preview: (id: string) => string }): Promise<void> {
  const others = ids.filter((id) => id !== ctx.member.id);
  if (others.length === 0) return;
  const members = await ctx.members.getMany(others);
  const shares = await ctx.db.shares.findAll({ where: { paper_id: paper.id }, attributes: ['principal_type', 'principal_id'] });
  for (const id of others) {
    const member = members.get(id);
    if (!member?.active || !(await mayOpen(ctx, paper, shares, member))) continue;
    ctx.events.stage('core.member.mentioned', { source: 'papers', mentioned_mrn: memberMrn(id), mentioner_mrn: memberMrn(ctx.member.id), resource_mrn: site.resourceMrn, link: site.link, preview: site.preview(id) });
  }
}

/** Tells each member the change made the paper mention (absent from the snapshot before it). */
export async function stagePaperMentions(ctx: Ctx, paper: Paper, result: CollabResult): Promise<void> {
  if (!result.content_changed) return;
  const before = richTextMentions(result.content_before as RichTextNode);
  const added = [...richTextMentions(result.content as RichTextNode)].filter(([id]) => !before.has(id));
  const previews = new Map(added.map(([id, text]) => [id, text.length > 200 ? `${text.slice(0, 199)}…` : text]));
  await tell(ctx, paper, [...previews.keys()], { resourceMrn: formatMrn('papers', 'paper', paper.id), link: `/papers/${paper.id}`, preview: (id) => previews.get(id)! });
}

/** Tells each member a comment's body mentions (`<@member_id>`) now and did not in `before` (null: a new comment). */
export async function stageCommentMentions(ctx: Ctx, paper: Paper, comment: Pick<Comment, 'id' | 'body'>, before: string | null): Promise<void> {
  const earlier = new Set(before === null ? [] : commentMentions(before));
  await tell(ctx, paper, commentMentions(comment.body).filter((id) => !earlier.has(id)), {
    resourceMrn: formatMrn('papers', 'comment', comment.id),
    link: `/papers/${paper.id}?comment=${comment.id}`,
    preview: () => commentPreview(comment.body),
  });
}
