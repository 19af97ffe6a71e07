import { memberMrn } from '@wpk/sdk';
import type { FeedsBaseContext } from '../kit.js';
import { mentionsIn, plainText } from './html.js';

/** Where a mention was written: a published post or a comment on one. */
export interface MentionSite {
  /** The sanitised HTML now. */
  html: string;
  /** The HTML readers saw before this change (an edit of a published post), or null: only members newly mentioned are told. */
  before: string | null;
  /** `mrn:feeds:post:{id}` or `mrn:feeds:comment:{id}`. */
  resourceMrn: string;
  /** The post's path, which the notification opens. */
  link: string;
  /** Who wrote it: never told of their own mention. */
  authorId: string;
  /** A department channel's readers (see audience.ts), or null: everyone reads it. Owners and admins read every channel. */
  audience: Set<string> | null;
}

/**
 * Stages one `core.member.mentioned` (source `feeds`) per active member of the workspace mentioned
 * in `site.html` and not already in `site.before`, other than the author. Ids that name no member of
 * this workspace are kept as text and tell no one.
 */
export async function stageMentions(ctx: FeedsBaseContext, site: MentionSite): Promise<void> {
  const earlier = new Set(site.before === null ? [] : mentionsIn(site.before));
  const ids = mentionsIn(site.html).filter((id) => id !== site.authorId && !earlier.has(id));
  if (ids.length === 0) return;
  const members = await ctx.members.getMany(ids);
  const text = plainText(site.html);
  const preview = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  for (const id of ids) {
    const member = members.get(id);
    if (!member?.active) continue;
    // Someone who cannot read the text is not told of it (the preview would show it to them).
    if (site.audience && !site.audience.has(id) && member.platform_role === 'member') continue;
    ctx.events.stage('core.member.mentioned', { source: 'feeds', mentioned_mrn: memberMrn(id), mentioner_mrn: memberMrn(site.authorId), resource_mrn: site.resourceMrn, link: site.link, preview });
  }
}
