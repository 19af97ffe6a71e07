import { ListScreen, appLink, html, type ListTable, type TableColumn } from '@wpk/ui';
import { changed, itemPath, type Item } from '../api.js';

/** `/shared`: the files and folders other members shared with this member, newest share first. */
export class FilesShared extends ListScreen<Item> {
  protected readonly heading = 'Shared with me';

  protected readonly columns: TableColumn<Item>[] = [
    { key: 'name', label: 'Name', render: (item) => appLink(itemPath(item), item.kind === 'folder' ? `${item.name}/` : item.name) },
    { key: 'type', label: 'Type' },
    { key: 'access', label: 'You may', render: (item) => (item.access === 'edit' ? 'edit' : 'view') },
    { key: 'updated_at', label: 'Changed', render: (item) => changed(item.updated_at) },
  ];

  protected override intro() {
    return html`<p class="intro muted">What other members shared with you. Open a folder to see what it holds.</p>`;
  }

  protected table(): ListTable<Item> {
    return { caption: 'Shared with you, newest first', source: '/shared-files', empty: 'Nothing is shared with you yet.' };
  }
}

customElements.define('files-shared', FilesShared);
