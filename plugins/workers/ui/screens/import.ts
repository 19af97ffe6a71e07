import { LitElement, appLink, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import type { components } from '@wpk/ui';

type ImportResult = components['schemas']['WorkersImportResult'];

/**
 * `/import`: workers from a CSV file (the export's columns). **Check** runs the API's dry run and
 * lists every bad cell by line and column; **Import** is offered once the check found none, and
 * imports all the rows or none.
 */
export class WorkersImport extends LitElement {
  static override properties = { csv: { state: true }, name: { state: true }, result: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, css`
    section { margin-top: var(--wpk-space-5); }
    .actions { display: flex; gap: var(--wpk-space-2); margin-top: var(--wpk-space-3); }
    table { border-collapse: collapse; } th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-3); border-bottom: 1px solid var(--wpk-color-border, #ccc); }
  `];
  declare csv: string;
  declare name: string;
  declare result: ImportResult | null;
  declare busy: boolean;

  constructor() {
    super();
    this.csv = '';
    this.name = '';
    this.result = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Import workers');
  }

  private async chosen(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    this.result = null;
    this.csv = file ? await file.text() : '';
    this.name = file?.name ?? '';
  }

  /** Sends the file, as a dry run (`check`) or for real. */
  private async send(dryRun: boolean): Promise<void> {
    this.busy = true;
    try {
      this.result = (await kit().client.workers.postWorkersImports({ body: { csv: this.csv, dry_run: dryRun } })).data;
      if (!dryRun) toast(`${this.result.imported} worker${this.result.imported === 1 ? '' : 's'} imported`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const result = this.result;
    const checked = result?.dry_run === true && result.valid;
    return html`<h1>Import workers</h1>
      <p>A CSV file with the columns of the directory's export: <code>name</code> and <code>work_email</code> are required;
        <code>title</code>, <code>department</code> (a department's name), <code>manager_email</code>, <code>location_mrn</code>,
        <code>start_date</code> and <code>employment_type</code> may follow. Nothing is imported unless every row is valid.</p>
      <label for="file">CSV file</label>
      <input id="file" type="file" accept=".csv,text/csv" @change=${(event: Event) => this.chosen(event)} />
      <div class="actions">
        <button type="button" ?disabled=${!this.csv || this.busy} @click=${() => this.send(true)}>Check</button>
        <button type="button" ?disabled=${!checked || this.busy} @click=${() => this.send(false)}>Import</button>
      </div>
      ${result
        ? html`<section aria-labelledby="outcome"><h2 id="outcome">${result.dry_run ? 'Check' : 'Import'} of ${this.name || 'the file'}</h2>
            <p role="status">${result.dry_run
              ? result.valid
                ? `All ${result.rows} row${result.rows === 1 ? '' : 's'} can be imported.`
                : `${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${result.rows} row${result.rows === 1 ? '' : 's'}: nothing can be imported until they are fixed.`
              : html`${result.imported} worker${result.imported === 1 ? '' : 's'} imported. ${appLink('/', 'Open the directory')}`}</p>
            ${result.problems.length
              ? html`<table><caption>Problems by line of the file</caption>
                  <thead><tr><th scope="col">Line</th><th scope="col">Column</th><th scope="col">Problem</th></tr></thead>
                  <tbody>${result.problems.map((problem) => html`<tr><td>${problem.line}</td><td>${problem.field}</td><td>${problem.error}</td></tr>`)}</tbody></table>`
              : nothing}
          </section>`
        : nothing}`;
  }
}

customElements.define('workers-import', WorkersImport);
