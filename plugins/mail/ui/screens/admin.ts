import { LitElement, css, errorText, html, kit, memberNamesById, nothing, screenStyles, type WpkMemberPicker, type components } from '@wpk/ui';
import { MAIL_STYLES, changePart, partRefusal, read, write } from '../api.js';

type Domain = components['schemas']['MailDomain'];
type Mailbox = components['schemas']['MailMailbox'];
type Group = components['schemas']['MailGroup'];

const field = (form: HTMLFormElement, name: string): string => String(new FormData(form).get(name) ?? '').trim();

/**
 * `/admin` (administrators; anyone else gets the API's refusal): the workspace's hosted domains
 * with the DNS records to publish and a verification, its mailboxes with whom they are assigned
 * to, and its groups.
 */
export class MailAdmin extends LitElement {
  static override properties = { domains: { state: true }, mailboxes: { state: true }, groups: { state: true }, names: { state: true }, error: { state: true }, refusal: { state: true } };
  static override styles = [screenStyles, MAIL_STYLES, css`
    section { margin-bottom: var(--wpk-space-5); }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: top; }
    td code { overflow-wrap: anywhere; word-break: break-all; }
    .ok { color: var(--wpk-color-success); }
    .missing { color: var(--wpk-color-danger); }
  `];
  declare domains: Domain[] | null;
  declare mailboxes: Mailbox[];
  declare groups: Group[];
  declare names: Map<string, string>;
  declare error: string | null;
  declare refusal: Record<string, string>;

  constructor() {
    super();
    this.domains = null;
    this.mailboxes = [];
    this.groups = [];
    this.names = new Map();
    this.error = null;
    this.refusal = {};
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Mail administration');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      [this.domains, this.mailboxes, this.groups] = await Promise.all([read<Domain[]>('/mail/domains?per_page=100'), read<Mailbox[]>('/mail/mailboxes?per_page=100'), read<Group[]>('/mail/groups?per_page=100')]);
      this.names = await memberNamesById(this.mailboxes.map((mailbox) => mailbox.member_id).filter((id): id is string => !!id));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private act(part: string, run: () => Promise<unknown>, done: string, form?: HTMLFormElement): Promise<void> {
    return changePart(this, part, run, done, form, () => this.load());
  }

  private refusalOf(part: string) {
    return partRefusal(this, part);
  }

  private domainOptions() {
    return this.domains!.map((domain) => html`<option value=${domain.id}>${domain.name}</option>`);
  }

  private renderDomains() {
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      void this.act('domains', () => write('POST', '/mail/domains', { name: field(form, 'name') }), 'Domain added: publish its records', form);
    };
    return html`<section aria-labelledby="domains"><h2 id="domains">Domains</h2>
      ${this.domains!.length ? this.domains!.map((domain) => html`<div class="card">
          <div class="actions"><strong>${domain.name}</strong> <span class=${domain.verified ? 'ok' : 'missing'}>${domain.verified ? 'Verified' : 'Not verified'}</span>
            <button type="button" @click=${() => this.act('domains', () => write('POST', `/mail/domains/${domain.id}/verification`, {}), `${domain.name} checked`)}>Check DNS<span class="wpk-visually-hidden">: ${domain.name}</span></button></div>
          ${domain.verified ? nothing : html`<div class="scroll"><table aria-label=${`DNS records of ${domain.name}`}><thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th><th scope="col">Found</th></tr></thead>
            <tbody>${domain.dns_records.map((record) => html`<tr><td>${record.type}</td><td><code>${record.name}</code></td><td><code>${record.value}</code></td><td>${record.status}</td></tr>`)}</tbody></table></div>`}
        </div>`) : html`<p class="muted">No domain yet.</p>`}
      <form class="fields" aria-label="Add a domain" @submit=${add}>
        <label for="domain-name">Domain name</label><input id="domain-name" name="name" required maxlength="253" placeholder="example.com" />
        ${this.refusalOf('domains')}<button type="submit">Add domain</button></form></section>`;
  }

  private renderMailboxes() {
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const member = form.querySelector<WpkMemberPicker>('wpk-member-picker')?.value[0];
      void this.act('mailboxes', () => write('POST', '/mail/mailboxes', { domain_id: field(form, 'domain_id'), local_part: field(form, 'local_part'), display_name: field(form, 'display_name'), member_id: member?.id ?? null }), 'Mailbox created', form);
    };
    return html`<section aria-labelledby="mailboxes"><h2 id="mailboxes">Mailboxes</h2>
      ${this.mailboxes.length ? html`<div class="scroll"><table aria-label="Mailboxes"><thead><tr><th scope="col">Address</th><th scope="col">Name</th><th scope="col">Assigned to</th></tr></thead>
        <tbody>${this.mailboxes.map((mailbox) => html`<tr><td>${mailbox.address}</td><td>${mailbox.display_name}</td><td>${mailbox.member_id ? this.names.get(mailbox.member_id) ?? 'A former member' : 'Nobody'}</td></tr>`)}</tbody></table></div>` : html`<p class="muted">No mailbox yet.</p>`}
      ${this.domains!.length ? html`<form class="fields" aria-label="New mailbox" @submit=${add}>
        <label for="mailbox-domain">Domain</label><select id="mailbox-domain" name="domain_id">${this.domainOptions()}</select>
        <label for="mailbox-local">Address before the @</label><input id="mailbox-local" name="local_part" required maxlength="64" />
        <label for="mailbox-name">Display name</label><input id="mailbox-name" name="display_name" maxlength="200" />
        <wpk-member-picker label="Assigned to"></wpk-member-picker>
        ${this.refusalOf('mailboxes')}<button type="submit">Create mailbox</button></form>` : nothing}</section>`;
  }

  private renderGroups() {
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      void this.act('groups', () => write('POST', '/mail/groups', { domain_id: field(form, 'domain_id'), local_part: field(form, 'local_part'), name: field(form, 'name'), who_can_post: field(form, 'who_can_post') }), 'Group created', form);
    };
    return html`<section aria-labelledby="groups"><h2 id="groups">Groups</h2>
      ${this.groups.length ? html`<div class="scroll"><table aria-label="Groups"><thead><tr><th scope="col">Address</th><th scope="col">Name</th><th scope="col">Who may post</th></tr></thead>
        <tbody>${this.groups.map((group) => html`<tr><td>${group.address}</td><td>${group.name}</td><td>${group.who_can_post === 'anyone' ? 'Anyone' : 'Its members'}</td></tr>`)}</tbody></table></div>` : html`<p class="muted">No group yet.</p>`}
      ${this.domains!.length ? html`<form class="fields" aria-label="New group" @submit=${add}>
        <label for="group-domain">Domain</label><select id="group-domain" name="domain_id">${this.domainOptions()}</select>
        <label for="group-local">Address before the @</label><input id="group-local" name="local_part" required maxlength="64" />
        <label for="group-name">Name</label><input id="group-name" name="name" required maxlength="200" />
        <label for="group-post">Who may post</label><select id="group-post" name="who_can_post"><option value="members">Its members</option><option value="anyone">Anyone</option></select>
        ${this.refusalOf('groups')}<button type="submit">Create group</button></form>` : nothing}</section>`;
  }

  protected override render() {
    if (this.error) return html`<h1>Mail administration</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.domains) return html`<wa-spinner label="Loading"></wa-spinner>`;
    return html`<h1>Mail administration</h1>${this.renderDomains()} ${this.renderMailboxes()} ${this.renderGroups()}`;
  }
}

customElements.define('mail-admin', MailAdmin);
