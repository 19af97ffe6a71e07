import { LitElement, appLink, css, errorText, html, kit, screenStyles, toast, type RowAction, type TableColumn, type WpkDataTable } from '@wpk/ui';
import { type Contact, type Suggestion } from '../api.js';

const MEMBER_MRN = /^mrn:account:member:(.+)$/;

/** `/suggestions`: the people the member chats, meets and mails with who are not contacts yet; accept (a contact is made) or dismiss. */
export class ContactsSuggestions extends LitElement {
  static override properties = { names: { state: true } };
  /** Members' names by id, from the shell (a suggestion from chat or calls knows the member only). */
  declare names: Map<string, string>;

  constructor() {
    super();
    this.names = new Map();
  }

  static override styles = [
    screenStyles,
    css`
      h1 { margin: 0 0 var(--wpk-space-2); }
      p.intro { margin: 0 0 var(--wpk-space-4); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Suggestions');
  }

  private memberId(suggestion: Suggestion): string | null {
    return MEMBER_MRN.exec(suggestion.member_mrn ?? '')?.[1] ?? null;
  }

  private nameOf(suggestion: Suggestion): string {
    const id = this.memberId(suggestion);
    return suggestion.name ?? (id ? this.names.get(id) : undefined) ?? suggestion.email ?? 'A colleague';
  }

  /** The table's source: the member's pending suggestions, with the names of the members among them learnt from the shell. */
  private readonly load = async (url: string) => {
    const page = await kit().client.request<{ data: Suggestion[]; links: Record<string, string>; pagination: { page: number; per_page: number; total: number; pages: number } }>('GET', url.startsWith('/contacts/suggestions') ? url : `/contacts/suggestions${url}`);
    const ids = page.data.flatMap((suggestion) => (suggestion.name ? [] : [this.memberId(suggestion)].filter((id): id is string => id !== null && !this.names.has(id))));
    if (ids.length) {
      const found = await kit().bridge.members(ids);
      this.names = new Map([...this.names, ...found.map((member) => [member.id, member.name] as const)]);
    }
    return page as never;
  };

  private readonly columns: TableColumn<Suggestion>[] = [
    { key: 'name', label: 'Person', render: (suggestion) => this.nameOf(suggestion) },
    { key: 'email', label: 'Email', render: (suggestion) => suggestion.email ?? (suggestion.member_mrn ? 'A workspace member' : '') },
    { key: 'sources', label: 'Seen in', render: (suggestion) => suggestion.sources.join(', ') },
    { key: 'interactions', label: 'Interactions', render: (suggestion) => html`${suggestion.interactions}, last <wpk-date value=${suggestion.last_interaction_at} format="relative"></wpk-date>` },
  ];

  private readonly actions: RowAction<Suggestion>[] = [
    { label: 'Accept', run: (suggestion) => this.decide(suggestion, 'accepted') },
    { label: 'Dismiss', danger: true, run: (suggestion) => this.decide(suggestion, 'dismissed') },
  ];

  private async decide(suggestion: Suggestion, status: 'accepted' | 'dismissed'): Promise<void> {
    const name = this.nameOf(suggestion);
    try {
      // A suggestion that knows neither a name nor an email (chat, calls) takes the member's name.
      const body = status === 'accepted' && !suggestion.name && !suggestion.email ? { status, display_name: name } : { status };
      const answer = (await kit().client.contacts.patchContactsSuggestionsBySuggestionId({ params: { suggestion_id: suggestion.id }, body: body as never })).data as Suggestion & { contact?: Contact };
      if (status === 'accepted') toast(`${answer.contact?.display_name ?? name} is now a contact`, 'success');
      else toast(`${name} dismissed: not suggested again`, 'neutral');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.renderRoot.querySelector<WpkDataTable>('wpk-data-table')?.reload();
  }

  protected override render() {
    return html`<h1>Suggestions</h1>
      <p class="intro">People you chat, meet and mail with who are not in the address book yet, most interactions first. Accept one to make a contact of them; a dismissed one is not suggested again. ${appLink('/', 'Back to contacts')}</p>
      <wpk-data-table caption="Your suggestions" .source=${this.load} .columns=${this.columns} .actions=${this.actions} empty="No suggestion right now."></wpk-data-table>`;
  }
}

customElements.define('contacts-suggestions', ContactsSuggestions);
