import { commentMentions, commentPreview, formatMrn, memberMrn, richTextMentions, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { DocNode, Page, PageComment, Space } from '../models/index.js';
import { roleOn, sees } from './access.js';

/**
 * Stages one `core.member.mentioned` (source `wiki`) per member of `ids` other than the author:
 * only active members of the workspace who see the page (`wiki.spaces.read`, a role on its space,
 * past its restriction) are told (the preview shows the text). Ids that name no member tell no one.
 */
async function tell(ctx: Ctx, space: Space, page: Page, byId: Map<string, Page>, ids: string[], site: { resourceMrn: string; link: string; preview: (id: string) => string }): Promise<void> {
  const others = ids.filter((id) => id !== ctx.member.id);
  if (others.length === 0) return;
  const members = await ctx.members.getMany(others);
  for (const id of others) {
    const member = members.get(id);
    if (!member?.active || (await ctx.members.lacks(id, ['wiki.spaces.read']))?.length !== 0) continue;
    const role = await roleOn({ member: { id, platform_role: member.platform_role }, db: ctx.db }, space);
    if (!sees(id, role, page, byId)) continue;
    ctx.events.stage('core.member.mentioned', { source: 'wiki', mentioned_mrn: memberMrn(id), mentioner_mrn: memberMrn(ctx.member.id), resource_mrn: site.resourceMrn, link: site.link, preview: site.preview(id) });
  }
}

/** Tells each member the page's content mentions now and did not in `before` (null: a new page). */
export async function stageWikiMentions(ctx: Ctx, space: Space, page: Page, byId: Map<string, Page>, before: DocNode | null): Promise<void> {
  const earlier = richTextMentions(before as RichTextNode | null);
  const now = richTextMentions(page.content as RichTextNode);
  const ids = [...now.keys()].filter((id) => !earlier.has(id));
  await tell(ctx, space, page, byId, ids, {
    resourceMrn: formatMrn('wiki', 'page', page.id),
    link: `/wiki/pages/${page.id}`,
    preview: (id) => {
      const text = now.get(id)!;
      return text.length > 200 ? `${text.slice(0, 199)}…` : text;
    },
  });
}

/** Tells each member a comment's body mentions (`<@member_id>`) now and did not in `before` (null: a new comment). */
export async function stageCommentMentions(ctx: Ctx, space: Space, page: Page, byId: Map<string, Page>, comment: PageComment, before: string | null): Promise<void> {
  const earlier = new Set(before === null ? [] : commentMentions(before));
  const ids = commentMentions(comment.body).filter((id) => !earlier.has(id));
  await tell(ctx, space, page, byId, ids, { resourceMrn: formatMrn('wiki', 'comment', comment.id), link: `/wiki/pages/${page.id}?comment=${comment.id}`, preview: () => commentPreview(comment.body) });
}
