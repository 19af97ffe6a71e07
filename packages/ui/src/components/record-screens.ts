import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { errorText, kit } from '../app.js';
import { appLink, confirmAction, navigate, toast } from '../router.js';
import type { FormSchema, WpkSchemaForm } from './schema-form.js';
import { screenStyles } from './shared-styles.js';
import './schema-form.js';
import './wa.js';

/** What a record's screens say about its kind: `{ noun: 'contact', plural: 'contacts' }`. */
export interface RecordNames {
  /** Lower case, singular: `contact`. */
  noun: string;
  /** Lower case, plural: `contacts`. */
  plural: string;
}

/**
 * A kind of record as both its screens need it: its names, what a record is called, and the app's
 * typed operations on it, written once (in the app's `ui/api.ts`) for the page and the form.
 */
export interface RecordKind<T extends { id: string }> extends RecordNames {
  /** The record's name as people read it (a heading, a toast). */
  nameOf(record: T): string;
  /** `GET /{plural}/{id}`. */
  read(id: string): Promise<T>;
  /** `POST /{plural}`: the new record. */
  create(body: Record<string, unknown>): Promise<T>;
  /** `PUT /{plural}/{id}` (or PATCH): the record as saved. */
  save(record: T, body: Record<string, unknown>): Promise<T>;
  /** `DELETE /{plural}/{id}`. */
  destroy(record: T): Promise<void>;
}

/**
 * The state both record screens share: the record read by the id of the `record-id` attribute,
 * an error (the API's words) instead of it, and the link back to the list.
 */
abstract class RecordScreen<T extends { id: string }> extends LitElement {
  static override properties = { recordId: { attribute: 'record-id' }, record: { state: true }, error: { state: true } };
  /** The record's id ('' on a new record's form). */
  declare recordId: string;
  declare record: T | null;
  declare error: string | null;
  /** The kind of record: its names and the app's operations on it. */
  protected abstract readonly kind: RecordKind<T>;

  constructor() {
    super();
    this.recordId = '';
    this.record = null;
    this.error = null;
  }

  /** The record's name as people read it (a heading, a toast). */
  protected nameOf(record: T): string {
    return this.kind.nameOf(record);
  }

  /** The record's own path in the app: `/{plural}/{id}`. */
  protected recordPath(record: Pick<T, 'id'>): string {
    return `/${this.kind.plural}/${record.id}`;
  }

  protected async load(): Promise<void> {
    try {
      this.record = await this.kind.read(this.recordId);
      this.loaded(this.record);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** After the record is read (the detail sets the title, reads names). */
  protected loaded(_record: T): void {}

  /** The error or the spinner, or null when the record is there to render. */
  protected pending(): TemplateResult | null {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', `Back to ${this.kind.plural}`)}</p>`;
    if (this.recordId && !this.record) return html`<wa-spinner label=${`Loading the ${this.kind.noun}`}></wa-spinner>`;
    return null;
  }
}

/**
 * A record's page (`/{plural}/{id}`, docs/ui.md "Record screens"): the way back to the list, the
 * name as the heading, a line under it, the record's fields as a description list, Edit (to
 * `/{plural}/{id}/edit`) and Delete (the shell asks first, then back to the list). A subclass
 * gives `kind`, `fields` and, if it likes, `subline` and `deleteMessage`.
 */
export abstract class RecordDetail<T extends { id: string }> extends RecordScreen<T> {
  static override styles = [
    screenStyles,
    css`
      h1 { margin: 0; }
      .sub { margin: var(--wpk-space-1) 0 var(--wpk-space-4); }
      dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0 0 var(--wpk-space-4); }
      @media (max-width: 480px) { dl { grid-template-columns: minmax(0, 1fr); } dd { margin-bottom: var(--wpk-space-2); } }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
      ul { list-style: none; margin: 0; padding: 0; }
      .kind { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s); }
      .long { white-space: pre-wrap; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); }
    `,
  ];

  /** The `<dt>`/`<dd>` pairs of the record. */
  protected abstract fields(record: T): TemplateResult;
  /** The line under the heading (nothing by default). */
  protected subline(_record: T): unknown {
    return nothing;
  }
  /** What the confirmation says deleting does. */
  protected deleteMessage(_record: T): string {
    return `The ${this.kind.noun} goes for everyone in the workspace.`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  protected override loaded(record: T): void {
    void kit().bridge.title(this.nameOf(record));
  }

  private async deleteRecord(): Promise<void> {
    const record = this.record!;
    const name = this.nameOf(record);
    if (!(await confirmAction({ title: `Delete ${name}?`, message: this.deleteMessage(record), confirm_label: `Delete ${this.kind.noun}`, danger: true }))) return;
    try {
      await this.kind.destroy(record);
      toast(`${name} deleted`, 'success');
      await navigate('/', { replace: true });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const waiting = this.pending();
    if (waiting) return waiting;
    const record = this.record!;
    const sub = this.subline(record);
    return html`<p class="back">${appLink('/', `← All ${this.kind.plural}`)}</p>
      <h1>${this.nameOf(record)}</h1>
      <p class="sub muted">${sub}</p>
      <dl>${this.fields(record)}</dl>
      <div class="actions">
        <wa-button variant="brand" @click=${() => navigate(`${this.recordPath(record)}/edit`)}>Edit</wa-button>
        <wa-button variant="danger" appearance="outlined" @click=${() => this.deleteRecord()}>Delete</wa-button>
      </div>`;
  }
}

/**
 * A record's form (`/new` and `/{plural}/{id}/edit`, docs/ui.md "Record screens"): a
 * `<wpk-schema-form>` filled from the record, `create` or `save` with the body `requestBody`
 * makes, then the record's page; a refusal goes on the field it names (`refusal` may rewrite it
 * first). A subclass gives `kind`, `schema`, `formValue` and `requestBody`.
 */
export abstract class RecordEdit<T extends { id: string }> extends RecordScreen<T> {
  static override styles = screenStyles;

  /** The form: the bounds are the API's. */
  protected abstract readonly schema: FormSchema;
  /** What the form shows for a record. */
  protected abstract formValue(record: T): Record<string, unknown>;
  /** The request's body from the form's values (`before`: null for a new record). */
  protected abstract requestBody(values: Record<string, unknown>, before: T | null): Record<string, unknown>;
  /** The refusal the form shows (the API's error by default). */
  protected refusal(error: unknown): unknown {
    return error;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title(this.recordId ? `Edit ${this.kind.noun}` : `New ${this.kind.noun}`);
    if (this.recordId) void this.load();
  }

  private async submit(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const before = this.record;
    try {
      const body = this.requestBody(event.detail, before);
      const saved = before ? await this.kind.save(before, body) : await this.kind.create(body);
      toast(`${this.nameOf(saved)} ${before ? 'saved' : 'added'}`, 'success');
      await navigate(this.recordPath(saved), { replace: Boolean(before) });
    } catch (error) {
      form.fail(this.refusal(error));
    }
  }

  protected override render() {
    const waiting = this.pending();
    if (waiting) return waiting;
    const record = this.record;
    const { noun, plural } = this.kind;
    return html`<p class="back">${record ? appLink(this.recordPath(record), `← ${this.nameOf(record)}`) : appLink('/', `← All ${plural}`)}</p>
      <h1>${record ? `Edit ${this.nameOf(record)}` : `New ${noun}`}</h1>
      <wpk-schema-form .schema=${this.schema} .value=${record ? this.formValue(record) : {}} submit-label=${record ? `Save ${noun}` : `Add ${noun}`}
        @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.submit(event)}></wpk-schema-form>`;
  }
}
