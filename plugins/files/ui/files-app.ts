import { AppRoot, html, kit, listScreen } from '@wpk/ui';
import './screens/drive.js';
import './screens/offboarding.js';
import './screens/shared.js';
import './screens/trash.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class FilesApp extends AppRoot {
  protected readonly label = 'Files';
  protected readonly sections = [
    { path: '/', label: 'My files' },
    { path: '/shared', label: 'Shared with me' },
    { path: '/trash', label: 'Trash' },
    // Owners and admins only (the routes' own check); a member who opens the path sees the API's 403.
    { path: '/admin', label: 'Offboarding', visible: () => kit().member.platform_role !== 'member' },
  ];
  protected readonly screens = [
    listScreen('/trash', 'files-trash'),
    listScreen('/shared', 'files-shared'),
    { path: '/admin', render: () => html`<files-offboarding></files-offboarding>` },
    { path: '/files/:file_id', render: ({ file_id }: Record<string, string>) => html`<files-drive .itemId=${file_id}></files-drive>` },
    { path: '/', render: () => html`<files-drive .itemId=${null}></files-drive>` },
  ];
}

customElements.define('files-app', FilesApp);
