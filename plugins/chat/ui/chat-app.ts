import { AppRoot, css, html } from '@wpk/ui';
import './screens/chat-home.js';
import './screens/new-chat.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class ChatApp extends AppRoot {
  static override styles = [AppRoot.styles, css`:host { --wpk-app-width: 1400px; }`];
  protected readonly label = 'Chat';
  protected readonly sections = [
    { path: '/', label: 'Chats' },
    { path: '/new', label: 'New chat' },
  ];
  protected readonly screens = [
    { path: '/new', render: () => html`<chat-new></chat-new>` },
    { path: '/chats/:chat_id', render: ({ chat_id }: Record<string, string>) => html`<chat-home .chatId=${chat_id}></chat-home>` },
    // A message as search and a mention's notification name it (`/chats/{id}/messages?after=…`): its chat.
    { path: '/chats/:chat_id/messages', render: ({ chat_id }: Record<string, string>) => html`<chat-home .chatId=${chat_id}></chat-home>` },
    { path: '/', render: () => html`<chat-home .chatId=${null}></chat-home>` },
  ];
}

customElements.define('chat-app', ChatApp);
