import { AppRoot, html } from '@wpk/ui';
import './screens/list.js';
import './screens/room.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class RoomsApp extends AppRoot {
  protected readonly label = 'Rooms';
  protected readonly sections = [{ path: '/', label: 'Rooms' }];
  protected readonly screens = [
    { path: '/rooms/:room_id', render: ({ room_id }: Record<string, string>) => html`<rooms-room room-id=${room_id}></rooms-room>` },
    { path: '/', render: () => html`<rooms-list></rooms-list>` },
  ];
}

customElements.define('rooms-app', RoomsApp);
