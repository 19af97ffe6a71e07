import { LitElement, css, html, nothing } from 'lit';
import { isApiError } from '@wpk/client/browser';
import { fieldOfError } from '../form-errors.js';
import { sharedStyles } from './shared-styles.js';
import './wa.js';

/** The part of JSON Schema the form reads (the shape the routes' joi schemas give the OpenAPI document). */
export interface FormSchema {
  type?: 'object';
  required?: string[];
  properties: Record<string, FieldSchema>;
}

/** One field's schema. */
export interface FieldSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  enum?: Array<string | number>;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** `x-widget: textarea` asks for a multi-line field (long text gets one anyway). */
  'x-widget'?: 'textarea';
  /** What each `enum` value reads as (an id's name: a manager, a department); a value without one reads as itself. */
  'x-labels'?: Record<string, string>;
}

/**
 * A field choosing one of some records (a manager, a department): their ids as the `enum`, each
 * read as its name (`x-labels`), in the order given.
 */
export const choiceField = (title: string, choices: ReadonlyArray<{ id: string; name: string }>): FieldSchema => ({
  type: 'string',
  title,
  enum: choices.map((choice) => choice.id),
  'x-labels': Object.fromEntries(choices.map((choice) => [choice.id, choice.name])),
});

const label = (name: string, schema: FieldSchema) => schema.title ?? name.replace(/_/g, ' ').replace(/^./, (letter) => letter.toUpperCase());

/**
 * `<wpk-schema-form>`: a form generated from a JSON Schema object (strings, numbers, integers,
 * booleans, enums, `format: date`), with the schema's bounds as the inputs' constraints. Submit
 * fires `wpk-submit` with the values; call `fail(error)` with the API's refusal and its `{"error"}`
 * message is shown on the field it names (or above the form). `submitting` disables the button.
 *
 * ```ts
 * html`<wpk-schema-form .schema=${schema} submit-label="Create" @wpk-submit=${async (event) => {
 *   try { await create(event.detail); } catch (error) { event.target.fail(error); }
 * }}></wpk-schema-form>`
 * ```
 */
export class WpkSchemaForm extends LitElement {
  static override properties = {
    schema: { attribute: false },
    value: { attribute: false },
    submitLabel: { attribute: 'submit-label' },
    submitting: { type: Boolean },
    fieldErrors: { state: true },
    formError: { state: true },
  };

  declare schema: FormSchema;
  declare value: Record<string, unknown>;
  declare submitLabel: string;
  declare submitting: boolean;
  declare fieldErrors: Record<string, string>;
  declare formError: string | null;

  constructor() {
    super();
    this.schema = { properties: {} };
    this.value = {};
    this.submitLabel = 'Save';
    this.submitting = false;
    this.fieldErrors = {};
    this.formError = null;
  }

  static override styles = [
    sharedStyles,
    css`
      form { display: grid; gap: var(--wpk-space-3); max-width: 36rem; }
      wa-callout { margin: 0; }
    `,
  ];

  /** Shows a refusal: on the field it names (its `field`), else above the form. */
  fail(error: unknown): void {
    const message = isApiError(error) ? error.error : error instanceof Error ? error.message : String(error);
    const field = fieldOfError(error, Object.keys(this.schema.properties));
    this.fieldErrors = field ? { [field]: message } : {};
    this.formError = field ? null : message;
    this.submitting = false;
    void this.updateComplete.then(() => {
      const target = field ? this.renderRoot.querySelector<HTMLElement>(`[name="${field}"]`) : this.renderRoot.querySelector<HTMLElement>('wa-callout');
      target?.focus();
    });
  }

  /** The values as the schema types them (empty optional fields left out). */
  values(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(this.schema.properties)) {
      const element = this.renderRoot.querySelector<HTMLInputElement>(`[name="${name}"]`);
      if (!element) continue;
      if (schema.type === 'boolean') {
        out[name] = element.checked;
        continue;
      }
      const raw = String(element.value ?? '');
      if (raw === '' && !this.schema.required?.includes(name)) continue;
      out[name] = schema.type === 'number' || schema.type === 'integer' ? (raw === '' ? raw : Number(raw)) : raw;
    }
    return out;
  }

  private submit(event: Event): void {
    event.preventDefault();
    this.fieldErrors = {};
    this.formError = null;
    this.submitting = true;
    this.dispatchEvent(new CustomEvent('wpk-submit', { detail: this.values(), bubbles: true, composed: true }));
  }

  private field(name: string, schema: FieldSchema) {
    const required = this.schema.required?.includes(name) ?? false;
    const error = this.fieldErrors[name];
    const current = this.value[name] ?? schema.default;
    const hint = error ? html`<span slot="hint" class="error">${error}</span>` : schema.description ? html`<span slot="hint">${schema.description}</span>` : nothing;
    if (schema.type === 'boolean') {
      return html`<wa-checkbox name=${name} ?checked=${current === true}>${label(name, schema)}${hint}</wa-checkbox>`;
    }
    if (schema.enum) {
      return html`<wa-select name=${name} label=${label(name, schema)} ?required=${required} value=${current === undefined ? '' : String(current)} aria-invalid=${error ? 'true' : 'false'}>
        ${schema.enum.map((option) => html`<wa-option value=${String(option)}>${schema['x-labels']?.[String(option)] ?? String(option)}</wa-option>`)}${hint}
      </wa-select>`;
    }
    const long = schema['x-widget'] === 'textarea' || (schema.maxLength ?? 0) > 500;
    if (long) {
      return html`<wa-textarea name=${name} label=${label(name, schema)} ?required=${required} maxlength=${schema.maxLength ?? nothing} .value=${current === undefined ? '' : String(current)} aria-invalid=${error ? 'true' : 'false'}>${hint}</wa-textarea>`;
    }
    const type = schema.type === 'number' || schema.type === 'integer' ? 'number' : schema.format === 'date' ? 'date' : schema.format === 'email' ? 'email' : 'text';
    return html`<wa-input
      name=${name}
      label=${label(name, schema)}
      type=${type}
      ?required=${required}
      minlength=${schema.minLength ?? nothing}
      maxlength=${schema.maxLength ?? nothing}
      min=${schema.minimum ?? nothing}
      max=${schema.maximum ?? nothing}
      step=${schema.type === 'integer' ? '1' : schema.type === 'number' ? 'any' : nothing}
      .value=${current === undefined ? '' : String(current)}
      aria-invalid=${error ? 'true' : 'false'}
      >${hint}</wa-input
    >`;
  }

  protected override render() {
    return html`<form novalidate @submit=${this.submit}>
      ${this.formError ? html`<wa-callout variant="danger" role="alert" tabindex="-1">${this.formError}</wa-callout>` : nothing}
      ${Object.entries(this.schema.properties).map(([name, schema]) => this.field(name, schema))}
      <div><wa-button type="submit" variant="brand" ?loading=${this.submitting} ?disabled=${this.submitting}>${this.submitLabel}</wa-button></div>
    </form>`;
  }
}

customElements.define('wpk-schema-form', WpkSchemaForm);

/**
 * Handles a `<wpk-schema-form>`'s `wpk-submit` for a form that adds something (docs/ui.md,
 * "`<wpk-schema-form>`"): `send(values)` makes the request (and may tell the person: a toast); when it succeeds
 * the form is ready again and emptied, then `after()` runs (the screen shows its list again); a
 * refusal, of either, shows on the form (`fail`).
 *
 * ```ts
 * html`<wpk-schema-form .schema=${schema} submit-label="Add" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) =>
 *   sendSchemaForm(event, (values) => kit().client.crm.postCrmProducts({ body: values as never }), () => this.load())}></wpk-schema-form>`
 * ```
 */
export async function sendSchemaForm(event: CustomEvent<Record<string, unknown>>, send: (values: Record<string, unknown>) => Promise<unknown>, after: () => unknown): Promise<void> {
  const form = event.target as WpkSchemaForm;
  try {
    await send(event.detail);
    form.submitting = false;
    form.value = {};
    await after();
  } catch (error) {
    form.fail(error);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'wpk-schema-form': WpkSchemaForm;
  }
}
