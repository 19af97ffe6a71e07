import { LitElement, confirmAction, css, errorText, html, kit, sharedStyles, toast, type RowAction, type TableColumn, type WpkDataTable } from '@wpk/ui';
import { bytes, changed, type Item } from '../api.js';

/** `/trash`: what the member deleted, newest first; restore an item (with what it held) or delete it for good. */
export class FilesTrash extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-2); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Trash');
  }

  private readonly columns: TableColumn<Item>[] = [
    { key: 'name', label: 'Name', render: (item) => (item.kind === 'folder' ? `${item.name}/` : item.name) },
    { key: 'size_bytes', label: 'Size', render: (item) => (item.kind === 'file' ? bytes(item.size_bytes) : 'folder') },
    { key: 'trashed_at', label: 'Deleted', render: (item) => (item.trashed_at ? changed(item.trashed_at) : '') },
  ];

  private readonly actions: RowAction<Item>[] = [
    { label: 'Restore', run: (item) => this.restore(item) },
    { label: 'Delete for good', danger: true, run: (item) => this.purge(item) },
  ];

  private table(): WpkDataTable | null {
    return this.renderRoot.querySelector<WpkDataTable>('wpk-data-table');
  }

  private async restore(item: Item): Promise<void> {
    try {
      await kit().client.files.postTrashByFileIdRestoration({ params: { file_id: item.id } });
      toast(`${item.name} restored`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.table()?.reload();
  }

  private async purge(item: Item): Promise<void> {
    if (!(await confirmAction({ title: `Delete ${item.name} for good?`, message: 'It cannot be restored afterwards, nor any of its versions.', confirm_label: 'Delete for good', danger: true }))) return;
    try {
      await kit().client.files.deleteTrashByFileId({ params: { file_id: item.id } });
      toast(`${item.name} deleted for good`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.table()?.reload();
  }

  protected override render() {
    return html`<h1>Trash</h1>
      <p class="muted">Deleted items wait here until you restore them or delete them for good (or the workspace's retention does).</p>
      <wpk-data-table caption="Your trash, newest first" .source=${'/trash'} .columns=${this.columns} .actions=${this.actions} empty="The trash is empty."></wpk-data-table>`;
  }
}

customElements.define('files-trash', FilesTrash);
