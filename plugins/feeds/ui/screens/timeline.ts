import { LitElement, html, kit, screenStyles, toast, errorText } from '@wpk/ui';
import { type Post } from '../api.js';
import './post-card.js';

/** `/`: the timeline of every channel, pinned posts first, a page at a time. */
export class FeedsTimeline extends LitElement {
  static override styles = [screenStyles];
  static override properties = { posts: { state: true }, next: { state: true } };
  declare posts: Post[];
  declare next: string | null;

  constructor() {
    super();
    this.posts = [];
    this.next = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Timeline');
    void this.load(null);
  }

  private async load(after: string | null): Promise<void> {
    try {
      const page = (await kit().client.feeds.getFeedsTimeline({ query: { limit: 20, ...(after ? { after } : {}) } })).data;
      this.posts = after ? [...this.posts, ...page.posts] : page.posts;
      this.next = page.next_cursor;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>Timeline</h1>
      ${this.posts.length === 0 ? html`<p>Nothing published yet.</p>` : this.posts.map((post) => html`<feeds-post-card .post=${post}></feeds-post-card>`)}
      ${this.next ? html`<button type="button" @click=${() => this.load(this.next)}>Older posts</button>` : ''}`;
  }
}

customElements.define('feeds-timeline', FeedsTimeline);
