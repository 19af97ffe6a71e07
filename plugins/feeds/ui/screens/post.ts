import { LitElement, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import type { WpkRichTextEditor } from '@wpk/ui/editor';
import { findMention, pickMention, richText, RICH_TEXT_CSS, type Comment, type Post } from '../api.js';

/** The reactions the screen offers (any emoji works through the API). */
const EMOJI = ['👍', '🎉', '❤️'];

/** `/posts/{id}`: a post, its reactions, its acknowledgement and its comments. */
export class FeedsPost extends LitElement {
  static override properties = { postId: { attribute: false }, post: { state: true }, comments: { state: true } };
  static override styles = [screenStyles, RICH_TEXT_CSS, css`
    section { margin-top: var(--wpk-space-5); } .reactions button { margin-right: var(--wpk-space-2); }
    .poll ul { list-style: none; padding: 0; } .poll li { margin-bottom: var(--wpk-space-2); }
    .poll button { min-width: 10rem; text-align: start; }
    .poll button[aria-pressed='true'] { font-weight: 700; border: 2px solid var(--wpk-color-accent, #0b5cad); } .poll meter { width: 8rem; vertical-align: middle; margin-inline: var(--wpk-space-2); }
  `];
  declare postId: string;
  declare post: Post | null;
  declare comments: Comment[];

  constructor() {
    super();
    this.postId = '';
    this.post = null;
    this.comments = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Post');
    // The rich text editor (tiptap) is a chunk of its own, loaded with the screen that writes.
    void import('@wpk/ui/editor');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.post = (await kit().client.feeds.getFeedsPostsByPostId({ params: { post_id: this.postId } })).data;
      this.comments = (await kit().client.feeds.getFeedsPostsByPostIdComments({ params: { post_id: this.postId }, query: { per_page: 100 } })).data;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Sends one of the post's operations (a reaction, the acknowledgement), then shows the post again. */
  private async act(send: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await send();
      toast(done, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async comment(): Promise<void> {
    const editor = this.renderRoot.querySelector<WpkRichTextEditor>('wpk-rich-text-editor');
    if (!editor || editor.empty) return void toast('Write the comment first', 'danger');
    try {
      await kit().client.feeds.postFeedsPostsByPostIdComments({ params: { post_id: this.postId }, body: { body: editor.html } });
      editor.clear();
      toast('Comment added', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** The post's poll: a button per option (pressed: the caller's vote) while it is open, the counts when they are shown. */
  private poll(post: Post) {
    const poll = post.poll;
    if (!poll) return nothing;
    const open = post.status === 'published' && !poll.closed;
    const total = poll.total_votes ?? 0;
    const closes = new Date(poll.closes_at).toLocaleString();
    const vote = (option: number) => () => kit().client.feeds.putFeedsPostsByPostIdVote({ params: { post_id: post.id }, body: { option } });
    return html`<section class="poll" aria-labelledby="poll"><h2 id="poll">Poll</h2>
      <p>${poll.closed ? `Closed ${closes}` : `Open until ${closes}`}${poll.total_votes === null ? ' · results are shown when it closes' : ` · ${total} vote${total === 1 ? '' : 's'}`}</p>
      <ul>${poll.options.map((option) => html`<li>
        ${open
          ? html`<button type="button" aria-pressed=${poll.my_vote === option.index ? 'true' : 'false'} @click=${() => this.act(vote(option.index), 'Vote saved')}>${option.label}</button>`
          : html`<span>${option.label}${poll.my_vote === option.index ? ' (your vote)' : ''}</span>`}
        ${option.votes === null ? nothing : html`<meter min="0" max=${Math.max(total, 1)} value=${option.votes} aria-label=${`${option.label}: ${option.votes} of ${total}`}></meter>${option.votes}`}
      </li>`)}</ul>
    </section>`;
  }

  protected override render() {
    const post = this.post;
    if (!post) return html`<p>Loading…</p>`;
    const mine = (emoji: string) => post.reactions.find((reaction) => reaction.emoji === emoji);
    return html`<h1>${post.title ?? 'Post'}</h1>
      <p>${post.author_name ?? 'Someone'} · ${post.status}${post.pinned ? ' · pinned' : ''}</p>
      <div class="text">${richText(post.body)}</div>
      ${post.removed_reason ? html`<p><strong>Removed:</strong> ${post.removed_reason}</p>` : nothing}
      ${post.status === 'published' ? html`<p class="reactions" aria-label="Reactions">${EMOJI.map((emoji) => {
        const reaction = mine(emoji);
        const params = { post_id: post.id, emoji };
        const send = () => (reaction?.mine ? kit().client.feeds.deleteFeedsPostsByPostIdReactionsByEmoji({ params }) : kit().client.feeds.putFeedsPostsByPostIdReactionsByEmoji({ params }));
        return html`<button type="button" aria-pressed=${reaction?.mine ? 'true' : 'false'} @click=${() => this.act(send, 'Reaction saved')}>${emoji} ${reaction?.count ?? 0}</button>`;
      })}</p>` : nothing}
      ${this.poll(post)}
      ${post.requires_acknowledgement && post.status === 'published'
        ? post.acknowledged
          ? html`<p role="status">You acknowledged this announcement.</p>`
          : html`<button type="button" @click=${() => this.act(() => kit().client.feeds.putFeedsPostsByPostIdAcknowledgement({ params: { post_id: post.id } }), 'Acknowledged')}>Acknowledge</button>`
        : nothing}
      <section aria-labelledby="comments"><h2 id="comments">Comments (${this.comments.length})</h2>
        <ul>${this.comments.map((comment) => html`<li><strong>${comment.author_name ?? 'Someone'}</strong>: <div class="text">${richText(comment.body)}</div></li>`)}</ul>
        ${post.status === 'published'
          ? html`<wpk-rich-text-editor label="Comment" .pickMember=${pickMention} .findMembers=${findMention}></wpk-rich-text-editor>
            <wa-button variant="brand" @click=${() => this.comment()}>Comment</wa-button>`
          : nothing}
      </section>`;
  }
}

customElements.define('feeds-post', FeedsPost);
