import { formatMrn, memberMrn, richTextMentions, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { DocNode, Page, Space } from '../models/index.js';
import { roleOn, sees } from './access.js';

/**
 * Stages one `core.member.mentioned` (source `wiki`) per member the page's content mentions now and
 * did not in `before` (null: a new page), other than the author: only active members of the
 * workspace who see the page (`wiki.spaces.read`, a role on its space, past its restriction) are
 * told (the preview shows its text). Ids that name no member tell no one.
 */
export async function stageWikiMentions(ctx: Ctx, space: Space, page: Page, byId: Map<string, Page>, before: DocNode | null): Promise<void> {
  const earlier = richTextMentions(before as RichTextNode | null);
  const now = richTextMentions(page.content as RichTextNode);
  const ids = [...now.keys()].filter((id) => id !== ctx.member.id && !earlier.has(id));
  if (ids.length === 0) return;
  const members = await ctx.members.getMany(ids);
  for (const id of ids) {
    const member = members.get(id);
    if (!member?.active || (await ctx.members.lacks(id, ['wiki.spaces.read']))?.length !== 0) continue;
    const role = await roleOn({ member: { id, platform_role: member.platform_role }, db: ctx.db }, space);
    if (!sees(id, role, page, byId)) continue;
    const text = now.get(id)!;
    const preview = text.length > 200 ? `${text.slice(0, 199)}…` : text;
    ctx.events.stage('core.member.mentioned', { source: 'wiki', mentioned_mrn: memberMrn(id), mentioner_mrn: memberMrn(ctx.member.id), resource_mrn: formatMrn('wiki', 'page', page.id), link: `/wiki/pages/${page.id}`, preview });
  }
}
