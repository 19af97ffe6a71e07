import { ListScreen, confirmAction, errorText, html, kit, toast, type ListTable, type RowAction, type TableColumn } from '@wpk/ui';
import { bytes, changed, type Item } from '../api.js';

/** `/trash`: what the member deleted, newest first; restore an item (with what it held) or delete it for good. */
export class FilesTrash extends ListScreen<Item> {
  protected readonly heading = 'Trash';

  protected readonly columns: TableColumn<Item>[] = [
    { key: 'name', label: 'Name', render: (item) => (item.kind === 'folder' ? `${item.name}/` : item.name) },
    { key: 'size_bytes', label: 'Size', render: (item) => (item.kind === 'file' ? bytes(item.size_bytes) : 'folder') },
    { key: 'trashed_at', label: 'Deleted', render: (item) => (item.trashed_at ? changed(item.trashed_at) : '') },
  ];

  private readonly actions: RowAction<Item>[] = [
    { label: 'Restore', run: (item) => this.restore(item) },
    { label: 'Delete for good', danger: true, run: (item) => this.purge(item) },
  ];

  private async restore(item: Item): Promise<void> {
    try {
      await kit().client.files.postTrashByFileIdRestoration({ params: { file_id: item.id } });
      toast(`${item.name} restored`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.reload();
  }

  private async purge(item: Item): Promise<void> {
    if (!(await confirmAction({ title: `Delete ${item.name} for good?`, message: 'It cannot be restored afterwards, nor any of its versions.', confirm_label: 'Delete for good', danger: true }))) return;
    try {
      await kit().client.files.deleteTrashByFileId({ params: { file_id: item.id } });
      toast(`${item.name} deleted for good`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.reload();
  }

  protected override intro() {
    return html`<p class="intro muted">Deleted items wait here until you restore them or delete them for good (or the workspace's retention does).</p>`;
  }

  protected table(): ListTable<Item> {
    return { caption: 'Your trash, newest first', source: '/trash', actions: this.actions, empty: 'The trash is empty.' };
  }
}

customElements.define('files-trash', FilesTrash);
