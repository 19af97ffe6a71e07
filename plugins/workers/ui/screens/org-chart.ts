import { LitElement, appLink, css, errorText, html, kit, screenStyles } from '@wpk/ui';
import type { OrgNode } from '../api.js';

/** `/org-chart`: everyone under their manager, from the workers without one, as a nested list. */
export class WorkersOrgChart extends LitElement {
  static override properties = { nodes: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`ul { list-style: none; margin: 0; padding-inline-start: 1.5rem; border-inline-start: 1px solid var(--wpk-color-border, #ccc); } ul.top { padding: 0; border: 0; } li { padding: var(--wpk-space-1) 0; } .title { color: var(--wpk-color-text-muted); }`];
  declare nodes: OrgNode[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.nodes = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Org chart');
    void kit()
      .client.workers.getWorkersOrgChart({ query: {} })
      .then((answer) => (this.nodes = (answer.data as { nodes: OrgNode[] }).nodes))
      .catch((error: unknown) => (this.error = errorText(error)));
  }

  /** The nodes under `managerId` (the answer lists each right after its manager). */
  private branch(managerId: string | null, depth: number): unknown {
    const children = (this.nodes ?? []).filter((node) => node.depth === depth && (depth === 0 || node.manager_id === managerId));
    if (children.length === 0) return '';
    return html`<ul class=${depth === 0 ? 'top' : ''} aria-label=${depth === 0 ? 'Org chart' : 'Reports'}>
      ${children.map((node) => html`<li>${appLink(`/workers/${node.id}`, node.name)} <span class="title">${node.title}</span>${this.branch(node.id, depth + 1)}</li>`)}
    </ul>`;
  }

  protected override render() {
    if (this.error) return html`<h1>Org chart</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.nodes) return html`<h1>Org chart</h1><wa-spinner label="Loading the org chart"></wa-spinner>`;
    return html`<h1>Org chart</h1>${this.nodes.length ? this.branch(null, 0) : html`<p>No worker yet.</p>`}`;
  }
}

customElements.define('workers-org-chart', WorkersOrgChart);
