import type { FeedsContext } from '../kit.js';
import { postDocument } from './present.js';

/**
 * A channel's audience changed (it became, or stopped being, a department channel, or names
 * another department): its posts carry the new audience, and only posts readable by everyone stay
 * in the search index.
 */
export async function reindexChannel(ctx: FeedsContext, channelId: string, departmentId: string | null): Promise<void> {
  await ctx.db.posts.update({ department_id: departmentId }, { where: { channel_id: channelId } });
  const rows = await ctx.db.posts.findAll({ where: { channel_id: channelId, status: 'published' } });
  for (const post of rows) {
    const document = postDocument({ ...post, department_id: departmentId });
    if (document) ctx.search.upsert(document);
    else ctx.search.remove('post', post.id);
  }
}
