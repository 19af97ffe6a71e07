import { LitElement, confirmAction, css, errorText, html, kit, navigate, nothing, sharedStyles, toast } from '@wpk/ui';
import { appLink, type Company } from '../api.js';

/** `/companies/{id}`: one company, its owner, its people in the Contacts app, and its edit and delete. */
export class CompaniesCompany extends LitElement {
  static override properties = { companyId: { attribute: 'company-id' }, company: { state: true }, owner: { state: true }, error: { state: true } };
  declare companyId: string;
  declare company: Company | null;
  /** The owner's name, from the shell's member directory (null: a former member). */
  declare owner: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.companyId = '';
    this.company = null;
    this.owner = null;
    this.error = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0; }
      .sub { margin: var(--wpk-space-1) 0 var(--wpk-space-4); }
      dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0 0 var(--wpk-space-4); }
      @media (max-width: 480px) { dl { grid-template-columns: minmax(0, 1fr); } dd { margin-bottom: var(--wpk-space-2); } }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
      .description { white-space: pre-wrap; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); }
      .back { margin: 0 0 var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.company = (await kit().client.companies.getCompaniesByCompanyId({ params: { company_id: this.companyId } })).data as Company;
      void kit().bridge.title(this.company.name);
      const [owner] = await kit().bridge.members([this.company.owner_id]);
      this.owner = owner?.name ?? null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async changeOwner(): Promise<void> {
    const [chosen] = await kit().bridge.pickMembers({ title: 'Who owns this company?' });
    if (!chosen) return;
    try {
      this.company = (await kit().client.companies.putCompaniesByCompanyId({ params: { company_id: this.companyId }, body: { owner_mrn: `mrn:account:member:${chosen.id}` } })).data as Company;
      this.owner = chosen.name;
      toast(`${chosen.name} owns ${this.company.name} now`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async deleteCompany(): Promise<void> {
    const company = this.company!;
    if (!(await confirmAction({ title: `Delete ${company.name}?`, message: 'The company goes for everyone in the workspace; contacts that name it lose their company.', confirm_label: 'Delete company', danger: true }))) return;
    try {
      await kit().client.companies.deleteCompaniesByCompanyId({ params: { company_id: company.id } });
      toast(`${company.name} deleted`, 'success');
      await navigate('/', { replace: true });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Its people, in the Contacts app (the shell leaves for it: this app's token reads companies only). */
  private people(company: Company) {
    const href = `/app/contacts/?${new URLSearchParams({ company_mrn: company.mrn })}`;
    return html`<a href=${href} @click=${(event: MouseEvent) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      void kit().bridge.open(href);
    }}>People at ${company.name}</a>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to companies')}</p>`;
    const company = this.company;
    if (!company) return html`<wa-spinner label="Loading the company"></wa-spinner>`;
    const address = [company.address.street, [company.address.postal_code, company.address.city].filter(Boolean).join(' '), company.address.region, company.address.country].filter(Boolean).join(', ');
    return html`<p class="back">${appLink('/', '← All companies')}</p>
      <h1>${company.name}</h1>
      <p class="sub muted">${[company.industry, company.size ? `${company.size} employees` : null].filter(Boolean).join(' · ') || nothing}</p>
      <dl>
        ${company.domain ? html`<dt>Domain</dt><dd><a href=${`https://${company.domain}`} target="_blank" rel="noopener noreferrer">${company.domain}</a></dd>` : nothing}
        ${address ? html`<dt>Address</dt><dd>${address}</dd>` : nothing}
        <dt>Owner</dt>
        <dd>${this.owner ?? 'A former member'} <wa-button size="small" appearance="plain" @click=${() => this.changeOwner()}>Change<span class="wpk-visually-hidden"> the owner</span></wa-button></dd>
        ${company.description ? html`<dt>About</dt><dd class="description">${company.description}</dd>` : nothing}
        <dt>People</dt>
        <dd>${this.people(company)}</dd>
      </dl>
      <div class="actions">
        <wa-button variant="brand" @click=${() => navigate(`/companies/${company.id}/edit`)}>Edit</wa-button>
        <wa-button variant="danger" appearance="outlined" @click=${() => this.deleteCompany()}>Delete</wa-button>
      </div>`;
  }
}

customElements.define('companies-company', CompaniesCompany);
