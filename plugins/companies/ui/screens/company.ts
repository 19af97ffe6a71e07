import { RecordDetail, errorText, html, kit, nothing, toast } from '@wpk/ui';
import { COMPANIES, type Company } from '../api.js';

/** `/companies/{id}`: one company, its owner, its people in the Contacts app, and its edit and delete. */
export class CompaniesCompany extends RecordDetail<Company> {
  static override properties = { ...RecordDetail.properties, owner: { state: true } };
  /** The owner's name, from the shell's member directory (null: a former member). */
  declare owner: string | null;
  protected readonly kind = COMPANIES;

  constructor() {
    super();
    this.owner = null;
  }

  protected override loaded(company: Company): void {
    super.loaded(company);
    void kit()
      .bridge.members([company.owner_id])
      .then(([owner]) => (this.owner = owner?.name ?? null));
  }

  protected override deleteMessage(): string {
    return 'The company goes for everyone in the workspace; contacts that name it lose their company.';
  }

  private async changeOwner(): Promise<void> {
    const [chosen] = await kit().bridge.pickMembers({ title: 'Who owns this company?' });
    if (!chosen) return;
    try {
      this.record = await COMPANIES.save(this.record!, { owner_mrn: `mrn:account:member:${chosen.id}` });
      this.owner = chosen.name;
      toast(`${chosen.name} owns ${this.record.name} now`, 'success');
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

  protected override subline(company: Company) {
    return [company.industry, company.size ? `${company.size} employees` : null].filter(Boolean).join(' · ');
  }

  protected fields(company: Company) {
    const address = [company.address.street, [company.address.postal_code, company.address.city].filter(Boolean).join(' '), company.address.region, company.address.country].filter(Boolean).join(', ');
    return html`
        ${company.domain ? html`<dt>Domain</dt><dd><a href=${`https://${company.domain}`} target="_blank" rel="noopener noreferrer">${company.domain}</a></dd>` : nothing}
        ${address ? html`<dt>Address</dt><dd>${address}</dd>` : nothing}
        <dt>Owner</dt>
        <dd>${this.owner ?? 'A former member'} <wa-button size="small" appearance="plain" @click=${() => this.changeOwner()}>Change<span class="wpk-visually-hidden"> the owner</span></wa-button></dd>
        ${company.description ? html`<dt>About</dt><dd class="long">${company.description}</dd>` : nothing}
        <dt>People</dt>
        <dd>${this.people(company)}</dd>`;
  }
}

customElements.define('companies-company', CompaniesCompany);
