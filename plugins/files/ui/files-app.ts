import { AppRoot, html } from '@wpk/ui';
import './screens/drive.js';
import './screens/trash.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class FilesApp extends AppRoot {
  protected readonly label = 'Files';
  protected readonly sections = [
    { path: '/', label: 'My files' },
    { path: '/trash', label: 'Trash' },
  ];
  protected readonly screens = [
    { path: '/trash', render: () => html`<files-trash></files-trash>` },
    { path: '/files/:file_id', render: ({ file_id }: Record<string, string>) => html`<files-drive .itemId=${file_id}></files-drive>` },
    { path: '/', render: () => html`<files-drive .itemId=${null}></files-drive>` },
  ];
}

customElements.define('files-app', FilesApp);
