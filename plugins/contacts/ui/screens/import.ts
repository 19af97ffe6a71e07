import { LitElement, appLink, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';

/** The API's bound on the text of one import (`POST /contacts/imports`, `vcard` max 1,000,000 characters). */
const MAX_CHARACTERS = 1_000_000;

/** `/import`: a `.vcf` file (vCard 4.0 or 3.0) into the address book, all or nothing. */
export class ContactsImport extends LitElement {
  static override properties = { busy: { state: true }, error: { state: true }, imported: { state: true } };
  declare busy: boolean;
  declare error: string | null;
  declare imported: number | null;

  constructor() {
    super();
    this.busy = false;
    this.error = null;
    this.imported = null;
  }

  static override styles = [
    screenStyles,
    css`
      :host { max-width: 40rem; }
      form { display: grid; gap: var(--wpk-space-3); }
      label { font-weight: var(--wpk-font-weight-bold); }
      input[type='file'] { font: inherit; color: var(--wpk-color-text); max-width: 100%; }
      input[type='file']:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      .field { display: grid; gap: var(--wpk-space-1); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Import contacts');
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#vcard-file')!;
    const file = input.files?.[0];
    this.error = null;
    this.imported = null;
    if (!file) {
      this.error = 'Choose a .vcf file to import';
      return;
    }
    const vcard = await file.text();
    if (vcard.length > MAX_CHARACTERS) {
      this.error = `${file.name} is too large: an import takes at most ${MAX_CHARACTERS.toLocaleString()} characters`;
      return;
    }
    this.busy = true;
    try {
      const answer = await kit().client.contacts.postContactsImports({ body: { vcard } });
      this.imported = answer.data.created;
      input.value = '';
      toast(`${answer.data.created} ${answer.data.created === 1 ? 'contact' : 'contacts'} imported`, 'success');
    } catch (error) {
      this.error = `${file.name}: ${errorText(error)}`;
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    return html`<h1>Import contacts</h1>
      <p>Choose a vCard file (<code>.vcf</code>, version 4.0 or 3.0), as Google Contacts, Apple Contacts, Outlook and Nextcloud export them. The import is all or nothing: a card that breaks a rule stops it, and says which.</p>
      <form @submit=${this.submit}>
        <div class="field">
          <label for="vcard-file">vCard file</label>
          <input id="vcard-file" type="file" accept=".vcf,.vcard,text/vcard,text/x-vcard" aria-describedby=${this.error ? 'import-error' : nothing} />
        </div>
        ${this.error ? html`<p id="import-error" class="error" role="alert">${this.error}</p>` : nothing}
        <div><wa-button type="submit" variant="brand" ?loading=${this.busy} ?disabled=${this.busy}>Import</wa-button></div>
      </form>
      ${this.imported !== null ? html`<p role="status">${this.imported} ${this.imported === 1 ? 'contact' : 'contacts'} imported. ${appLink('/', 'See the address book')}</p>` : nothing}`;
  }
}

customElements.define('contacts-import', ContactsImport);
