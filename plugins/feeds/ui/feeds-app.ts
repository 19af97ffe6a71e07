import { AppRoot, html } from '@wpk/ui';
import './screens/cards.js';
import './screens/channels.js';
import './screens/post.js';
import './screens/timeline.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class FeedsApp extends AppRoot {
  protected readonly label = 'Feeds';
  protected readonly sections = [
    { path: '/', label: 'Timeline' },
    { path: '/channels', label: 'Channels' },
    { path: '/cards', label: 'Event cards' },
  ];
  protected readonly screens = [
    { path: '/posts/:post_id', render: ({ post_id }: Record<string, string>) => html`<feeds-post .postId=${post_id}></feeds-post>` },
    // A post as search and a mention's notification name it.
    { path: '/feeds/posts/:post_id', render: ({ post_id }: Record<string, string>) => html`<feeds-post .postId=${post_id}></feeds-post>` },
    { path: '/channels/:channel_id', render: ({ channel_id }: Record<string, string>) => html`<feeds-channel .channelId=${channel_id}></feeds-channel>` },
    { path: '/channels', render: () => html`<feeds-channels></feeds-channels>` },
    { path: '/cards', render: () => html`<feeds-cards></feeds-cards>` },
    { path: '/', render: () => html`<feeds-timeline></feeds-timeline>` },
  ];
}

customElements.define('feeds-app', FeedsApp);
