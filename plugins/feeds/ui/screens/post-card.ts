import { LitElement, appLink, css, html, nothing, screenStyles } from '@wpk/ui';
import { richText, RICH_TEXT_CSS, type Post } from '../api.js';

/** One post in a list: title, author, when, its text, its reactions and comment count, a link to it. */
export class FeedsPostCard extends LitElement {
  static override styles = [screenStyles, RICH_TEXT_CSS, css`
    article { border: 1px solid var(--wpk-color-border, #ccc); border-radius: var(--wpk-radius, 6px); padding: var(--wpk-space-3); margin-bottom: var(--wpk-space-3); }
    .meta { color: var(--wpk-color-muted, #555); font-size: 0.875rem; }
  `];

  static override properties = { post: { attribute: false } };
  declare post: Post;

  protected override render() {
    const post = this.post;
    const reactions = post.reactions.map((reaction) => `${reaction.emoji} ${reaction.count}`).join('  ');
    return html`<article aria-label=${post.title ?? 'Post'}>
      ${post.pinned ? html`<p class="meta"><strong>Pinned</strong></p>` : nothing}
      <h2>${appLink(`/posts/${post.id}`, post.title ?? 'Post')}</h2>
      <p class="meta">${post.author_name ?? 'Someone'} · ${post.status}${post.requires_acknowledgement ? ' · announcement' : ''}${post.acknowledged ? ' · acknowledged' : ''}</p>
      <div class="text">${richText(post.body)}</div>
      <p class="meta">${reactions}${reactions ? ' · ' : ''}${post.comment_count} comment${post.comment_count === 1 ? '' : 's'}${post.poll ? ` · poll${post.poll.closed ? ' (closed)' : ''}` : ''}</p>
    </article>`;
  }
}

customElements.define('feeds-post-card', FeedsPostCard);
