import { LitElement, appLink, css, errorText, html, kit, navigate, screenStyles, toast, type FormSchema, type TableColumn, type WpkSchemaForm } from '@wpk/ui';
import type { WpkRichTextEditor } from '@wpk/ui/editor';
import { findMention, pickMention, RICH_TEXT_CSS, type Channel, type Post } from '../api.js';
import './post-card.js';

/** The form of a new channel: the bounds are the API's. */
const CHANNEL_FORM: FormSchema = {
  required: ['name', 'kind'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
    kind: { type: 'string', title: 'Kind', enum: ['company', 'department', 'topic'] },
    department_mrn: { type: 'string', title: 'Department', maxLength: 100, description: 'For a department channel: mrn:workers:department:{id}.' },
    post_policy: { type: 'string', title: 'Who may post', enum: ['everyone', 'admins'] },
  },
};

/** The composer's fields beside its text (written in the rich text editor above them): a title, whether members must acknowledge it, and an optional poll. */
const POST_FORM: FormSchema = {
  required: [],
  properties: {
    title: { type: 'string', title: 'Title', maxLength: 200 },
    requires_acknowledgement: { type: 'boolean', title: 'Members must acknowledge it' },
    poll_options: { type: 'string', title: 'Poll options', maxLength: 4100, 'x-widget': 'textarea', description: 'One option per line (2 to 20); leave empty for a post without a poll.' },
    poll_days: { type: 'integer', title: 'Poll closes in (days)', minimum: 1, maximum: 90 },
    poll_hide_results: { type: 'boolean', title: 'Hide the results until the poll closes' },
  },
};

const DAY_MS = 86_400_000;

/** The composer's poll fields as the API's poll, or null when no option was written. */
function pollOf(values: Record<string, unknown>) {
  const options = String(values.poll_options ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
  if (options.length === 0) return null;
  const days = Number(values.poll_days ?? 7) || 7;
  return { options, closes_at: new Date(Date.now() + days * DAY_MS).toISOString(), hide_results: values.poll_hide_results === true };
}

/** `/channels`: the channels, and a form to add one. */
export class FeedsChannels extends LitElement {
  static override styles = [screenStyles, css`section { margin-top: var(--wpk-space-5); }`];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Channels');
  }

  private async add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const values = event.detail;
    try {
      const channel = (await kit().client.feeds.postFeedsChannels({ body: { name: String(values.name ?? '').trim(), kind: values.kind, department_mrn: String(values.department_mrn ?? '').trim() || null, post_policy: values.post_policy || 'everyone' } as never })).data;
      toast(`${channel.name} added`, 'success');
      await navigate(`/channels/${channel.id}`);
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    const columns: TableColumn<Channel>[] = [
      { key: 'name', label: 'Channel', render: (channel) => appLink(`/channels/${channel.id}`, channel.name) },
      { key: 'kind', label: 'Kind', render: (channel) => channel.kind },
      { key: 'post_policy', label: 'Who may post', render: (channel) => (channel.post_policy === 'roles' ? channel.post_roles.join(', ') : channel.post_policy) },
    ];
    return html`<h1>Channels</h1>
      <wpk-data-table caption="The workspace's channels" .source=${'/feeds/channels'} .columns=${columns} empty="No channel yet: add the first one below."></wpk-data-table>
      <section aria-labelledby="add"><h2 id="add">Add a channel</h2>
        <wpk-schema-form .schema=${CHANNEL_FORM} .value=${{ kind: 'topic', post_policy: 'everyone' }} submit-label="Add channel" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>
      </section>`;
  }
}

/** `/channels/{id}`: a channel's posts, newest first, and the composer. */
export class FeedsChannel extends LitElement {
  static override properties = { channelId: { attribute: false }, posts: { state: true } };
  static override styles = [screenStyles, RICH_TEXT_CSS, css`section { margin-top: var(--wpk-space-5); } .label { font-weight: 600; margin: 0 0 4px; }`];
  declare channelId: string;
  declare posts: Post[];

  constructor() {
    super();
    this.channelId = '';
    this.posts = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Channel');
    // The rich text editor (tiptap) is a chunk of its own, loaded with the screen that writes.
    void import('@wpk/ui/editor');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.posts = (await kit().client.feeds.getFeedsChannelsByChannelIdPosts({ params: { channel_id: this.channelId } })).data;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async post(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const values = event.detail;
    const editor = this.renderRoot.querySelector<WpkRichTextEditor>('wpk-rich-text-editor');
    if (!editor || editor.empty) {
      form.submitting = false;
      toast('Write the text of the post first', 'danger');
      editor?.focus();
      return;
    }
    try {
      const post = (await kit().client.feeds.postFeedsChannelsByChannelIdPosts({ params: { channel_id: this.channelId }, body: { title: String(values.title ?? '').trim() || null, body: editor.html, requires_acknowledgement: values.requires_acknowledgement === true, poll: pollOf(values) } })).data;
      toast('Published', 'success');
      await navigate(`/posts/${post.id}`);
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    return html`<h1>Channel</h1>
      <section aria-labelledby="write"><h2 id="write">Write a post</h2>
        <p class="label" aria-hidden="true">Text</p>
        <wpk-rich-text-editor label="Text of the post" .pickMember=${pickMention} .findMembers=${findMention}></wpk-rich-text-editor>
        <wpk-schema-form .schema=${POST_FORM} .value=${{ title: '', requires_acknowledgement: false, poll_options: '', poll_days: 7, poll_hide_results: false }} submit-label="Publish" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.post(event)}></wpk-schema-form>
      </section>
      <section aria-labelledby="posts"><h2 id="posts">Posts</h2>
        ${this.posts.length === 0 ? html`<p>No post yet.</p>` : this.posts.map((post) => html`<feeds-post-card .post=${post}></feeds-post-card>`)}
      </section>`;
  }
}

customElements.define('feeds-channels', FeedsChannels);
customElements.define('feeds-channel', FeedsChannel);
