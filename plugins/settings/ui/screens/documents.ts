import { LitElement, css, errorText, html, kit, nothing, screenStyles, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';

/**
 * A screen editing one document of the app (its `GET` then its `PUT` operation): the organisation
 * profile, the member's preferences. A refusal shows on the field it names.
 */
abstract class DocumentScreen extends LitElement {
  static override properties = { document: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`.links { display: grid; gap: var(--wpk-space-2); padding: 0; list-style: none; } section { margin-top: var(--wpk-space-5); }`];
  declare document: Record<string, unknown> | null;
  declare error: string | null;
  protected abstract readonly heading: string;
  /** The document's `GET` operation: answers the document. */
  protected abstract read(): Promise<Record<string, unknown>>;
  /** The document's `PUT` operation: answers the saved document. */
  protected abstract write(body: Record<string, unknown>): Promise<Record<string, unknown>>;
  protected abstract readonly schema: FormSchema;
  protected abstract readonly saveLabel: string;
  /** What the form shows of the document. */
  protected abstract formValue(document: Record<string, unknown>): Record<string, unknown>;
  /** The `PUT` body from the form's values. */
  protected abstract requestBody(values: Record<string, unknown>): Record<string, unknown>;

  constructor() {
    super();
    this.document = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title(this.heading);
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.document = await this.read();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      this.document = await this.write(this.requestBody(event.detail));
      form.submitting = false;
      toast(`${this.heading} saved`, 'success');
    } catch (error) {
      form.fail(error);
    }
  }

  /** What follows the form (links, notes). */
  protected extra(): unknown {
    return nothing;
  }

  protected override render() {
    if (this.error) return html`<h1>${this.heading}</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.document) return html`<wa-spinner label=${`Loading ${this.heading.toLowerCase()}`}></wa-spinner>`;
    return html`<h1>${this.heading}</h1>
      <wpk-schema-form .schema=${this.schema} .value=${this.formValue(this.document)} submit-label=${this.saveLabel}
        @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.save(event)}></wpk-schema-form>
      ${this.extra()}`;
  }
}

const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const ORGANIZATION_FIELDS = ['legal_name', 'logo_key', 'base_currency', 'timezone', 'locale', 'week_start', 'fiscal_year_start_month'];

/** The platform's own admin screens (server-rendered pages, outside the app's frame). */
const ADMIN_SCREENS: Array<[string, string]> = [
  ['/admin/members', 'Members and invitations'],
  ['/admin/roles', 'Roles'],
  ['/admin/apps', 'Apps, their access and settings'],
  ['/admin/api-keys', 'API keys'],
  ['/admin/activity', 'Admin activity'],
  ['/admin/settings', 'Workspace settings'],
];

/** `/`: the organisation profile, and the way to the platform's admin screens. */
export class SettingsOrganization extends DocumentScreen {
  protected readonly heading = 'Organisation';
  protected readonly saveLabel = 'Save organisation';
  protected readonly schema: FormSchema = {
    required: ['legal_name', 'base_currency', 'timezone', 'locale'],
    properties: {
      legal_name: { type: 'string', title: 'Legal name', minLength: 1, maxLength: 200 },
      base_currency: { type: 'string', title: 'Base currency', minLength: 3, maxLength: 3, description: 'An ISO 4217 code, such as EUR or USD.' },
      timezone: { type: 'string', title: 'Time zone', maxLength: 100, description: 'An IANA time zone, such as Europe/Berlin.' },
      locale: { type: 'string', title: 'Locale', maxLength: 35, description: 'A language tag, such as en-GB or de-DE.' },
      week_start: { type: 'string', title: 'Week starts on', enum: WEEK_DAYS },
      fiscal_year_start_month: { type: 'integer', title: 'Fiscal year starts in month', minimum: 1, maximum: 12 },
      logo_key: { type: 'string', title: 'Logo (storage key)', maxLength: 500 },
    },
  };

  protected async read() {
    return (await kit().client.settings.getSettingsOrganization()).data;
  }

  protected async write(body: Record<string, unknown>) {
    return (await kit().client.settings.putSettingsOrganization({ body: body as never })).data;
  }

  protected formValue(document: Record<string, unknown>) {
    return Object.fromEntries(ORGANIZATION_FIELDS.map((field) => [field, document[field] ?? '']));
  }

  protected requestBody(values: Record<string, unknown>) {
    return { ...Object.fromEntries(ORGANIZATION_FIELDS.filter((field) => values[field] !== undefined).map((field) => [field, values[field]])), logo_key: values.logo_key ?? null };
  }

  protected override extra() {
    const open = (event: MouseEvent, href: string) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      void kit().bridge.open(href);
    };
    return html`<section aria-labelledby="admin"><h2 id="admin">Workspace administration</h2>
      <ul class="links">${ADMIN_SCREENS.map(([href, label]) => html`<li><a href=${href} @click=${(event: MouseEvent) => open(event, href)}>${label}</a></li>`)}</ul></section>`;
  }
}

const PREFERENCE_FIELDS = ['language', 'timezone', 'date_format'];
const CHANNELS: Array<[string, string]> = [['in_app', 'In the app'], ['email', 'By e-mail'], ['push', 'Push notifications']];

/** `/preferences`: the calling member's own preferences. */
export class SettingsPreferences extends DocumentScreen {
  protected readonly heading = 'My preferences';
  protected readonly saveLabel = 'Save preferences';
  protected readonly schema: FormSchema = {
    required: ['language'],
    properties: {
      language: { type: 'string', title: 'Language', maxLength: 35, description: 'A language tag, such as en or fr-FR.' },
      timezone: { type: 'string', title: 'Time zone', maxLength: 100, description: "Empty: the organisation's." },
      date_format: { type: 'string', title: 'Date format', enum: ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] },
      ...Object.fromEntries(CHANNELS.map(([channel, title]) => [`channel_${channel}`, { type: 'boolean', title }])),
    },
  };

  protected async read() {
    return (await kit().client.settings.getSettingsPreferences()).data;
  }

  protected async write(body: Record<string, unknown>) {
    return (await kit().client.settings.putSettingsPreferences({ body: body as never })).data;
  }

  protected formValue(document: Record<string, unknown>) {
    const channels = (document.notification_channels as string[]) ?? [];
    return { ...Object.fromEntries(PREFERENCE_FIELDS.map((field) => [field, document[field] ?? ''])), ...Object.fromEntries(CHANNELS.map(([channel]) => [`channel_${channel}`, channels.includes(channel)])) };
  }

  protected requestBody(values: Record<string, unknown>) {
    return {
      language: values.language,
      timezone: values.timezone || null,
      ...(values.date_format ? { date_format: values.date_format } : {}),
      notification_channels: CHANNELS.map(([channel]) => channel).filter((channel) => values[`channel_${channel}`] === true),
    };
  }
}

customElements.define('settings-organization', SettingsOrganization);
customElements.define('settings-preferences', SettingsPreferences);
