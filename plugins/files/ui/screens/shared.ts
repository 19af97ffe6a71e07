import { LitElement, appLink, css, html, kit, sharedStyles, type TableColumn } from '@wpk/ui';
import { changed, itemPath, type Item } from '../api.js';

/** `/shared`: the files and folders other members shared with this member, newest share first. */
export class FilesShared extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-2); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Shared with me');
  }

  private readonly columns: TableColumn<Item>[] = [
    { key: 'name', label: 'Name', render: (item) => appLink(itemPath(item), item.kind === 'folder' ? `${item.name}/` : item.name) },
    { key: 'type', label: 'Type' },
    { key: 'access', label: 'You may', render: (item) => (item.access === 'edit' ? 'edit' : 'view') },
    { key: 'updated_at', label: 'Changed', render: (item) => changed(item.updated_at) },
  ];

  protected override render() {
    return html`<h1>Shared with me</h1>
      <p class="muted">What other members shared with you. Open a folder to see what it holds.</p>
      <wpk-data-table caption="Shared with you, newest first" .source=${'/shared-files'} .columns=${this.columns} empty="Nothing is shared with you yet."></wpk-data-table>`;
  }
}

customElements.define('files-shared', FilesShared);
