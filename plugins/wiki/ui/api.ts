import { css, html, kit, nothing, type TemplateResult } from '@wpk/ui';

export interface Space { id: string; name: string; description: string; role: string; default_role: string; publication: { page_id: string | null } | null }
export interface DocNode { type: string; attrs?: Record<string, unknown>; content?: DocNode[]; text?: string; marks?: Array<{ type: string; attrs?: Record<string, unknown> }> }
export interface PageSummary { id: string; space_id: string; parent_id: string | null; title: string; depth: number; parent_hidden: boolean; version: number; verification: string; owner_id: string | null; due_at: string | null }
export interface Page extends PageSummary { content: DocNode; markdown: string }

/** A GET of the app's API, answering its data. */
export async function get<T>(path: string): Promise<T> {
  return ((await kit().client.request('GET', path, { query: { per_page: 100 } })) as { data: T }).data;
}

/** A write of the app's API, answering its data. */
export async function send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return ((await kit().client.request(method, path, body === undefined ? {} : { body })) as { data: T }).data;
}

/** How a verification state reads. */
export const VERIFICATION_LABELS: Record<string, string> = { unverified: 'Not verified', verified: 'Verified', due: 'Due for review', expired: 'Expired' };

/** A page id from a link target (`page:{id}`), else null. */
const pageTarget = (href: string) => /^page:([0-9a-f-]{36})$/i.exec(href)?.[1] ?? null;

/** Inline nodes as Lit templates (text escaped by Lit; links to pages open them in the app). */
function inline(nodes: DocNode[] = [], open: (pageId: string) => void): TemplateResult[] {
  return nodes.map((node) => {
    let out: TemplateResult | string = node.text ?? '';
    const marks = node.marks ?? [];
    if (marks.some((mark) => mark.type === 'code')) out = html`<code>${out}</code>`;
    if (marks.some((mark) => mark.type === 'italic')) out = html`<em>${out}</em>`;
    if (marks.some((mark) => mark.type === 'bold')) out = html`<strong>${out}</strong>`;
    const link = marks.find((mark) => mark.type === 'link');
    const href = String(link?.attrs?.href ?? '');
    const target = link ? pageTarget(href) : null;
    if (target) out = html`<a href="#" @click=${(event: Event) => { event.preventDefault(); open(target); }}>${out}</a>`;
    else if (link && /^(https?:|mailto:)/i.test(href)) out = html`<a href=${href} target="_blank" rel="noopener noreferrer">${out}</a>`;
    return html`${out}`;
  });
}

/** A document as Lit templates. */
export function renderDoc(doc: DocNode, open: (pageId: string) => void): TemplateResult[] {
  const block = (node: DocNode): TemplateResult => {
    const children = node.content ?? [];
    switch (node.type) {
      case 'heading': {
        const level = Math.min(6, Math.max(2, Number(node.attrs?.level ?? 1) + 1));
        const text = inline(children, open);
        return level === 2 ? html`<h2>${text}</h2>` : level === 3 ? html`<h3>${text}</h3>` : html`<h4>${text}</h4>`;
      }
      case 'codeBlock':
        return html`<pre><code>${children.map((child) => child.text ?? '').join('')}</code></pre>`;
      case 'horizontalRule':
        return html`<hr />`;
      case 'blockquote':
        return html`<blockquote>${children.map(block)}</blockquote>`;
      case 'bulletList':
      case 'taskList':
        return html`<ul>${children.map(block)}</ul>`;
      case 'orderedList':
        return html`<ol>${children.map(block)}</ol>`;
      case 'listItem':
      case 'taskItem':
        return html`<li>${node.type === 'taskItem' ? (node.attrs?.checked ? '☑ ' : '☐ ') : nothing}${children.map((child) => (child.type === 'paragraph' ? inline(child.content, open) : block(child)))}</li>`;
      case 'table': {
        const headed = children.length > 0 && (children[0]!.content ?? []).every((cell) => cell.type === 'tableHeader');
        const row = (tr: DocNode) => html`<tr>${(tr.content ?? []).map(cell)}</tr>`;
        return html`<table>${headed ? html`<thead>${row(children[0]!)}</thead>` : nothing}<tbody>${children.slice(headed ? 1 : 0).map(row)}</tbody></table>`;
      }
      default:
        return html`<p>${inline(children, open)}</p>`;
    }
  };
  const cell = (node: DocNode): TemplateResult => {
    const blocks = node.content ?? [];
    const inner = blocks.length === 1 && blocks[0]!.type === 'paragraph' ? inline(blocks[0]!.content, open) : blocks.map(block);
    const colspan = Math.max(1, Math.trunc(Number(node.attrs?.colspan ?? 1)) || 1);
    const rowspan = Math.max(1, Math.trunc(Number(node.attrs?.rowspan ?? 1)) || 1);
    return node.type === 'tableHeader' ? html`<th scope="col" colspan=${colspan} rowspan=${rowspan}>${inner}</th>` : html`<td colspan=${colspan} rowspan=${rowspan}>${inner}</td>`;
  };
  return (doc.content ?? []).map(block);
}

/** The screens' shared look. */
export const WIKI_STYLES = css`
  .muted { color: var(--wpk-color-text-muted); }
  ul.tree { list-style: none; padding: 0; margin: 0; }
  ul.tree li { padding: var(--wpk-space-1) 0; }
  ul.tree li.depth-1 { padding-inline-start: 1.25rem; }
  ul.tree li.depth-2 { padding-inline-start: 2.5rem; }
  ul.tree li.depth-3 { padding-inline-start: 3.75rem; }
  ul.tree li.depth-4 { padding-inline-start: 5rem; }
  ul.tree li.depth-5 { padding-inline-start: 6.25rem; }
  ul.tree li.depth-6 { padding-inline-start: 7.5rem; }
  ul.tree li.depth-7 { padding-inline-start: 8.75rem; }
  ul.tree li.depth-8 { padding-inline-start: 10rem; }
  form.inline { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin: var(--wpk-space-3) 0; }
  form.inline label { display: grid; gap: var(--wpk-space-1); font-weight: var(--wpk-font-weight-bold); }
  textarea { width: 100%; min-height: 16rem; font-family: var(--wpk-font-mono, monospace); box-sizing: border-box; }
  .badge { display: inline-block; padding: 0 var(--wpk-space-2); border-radius: 999px; border: 1px solid var(--wpk-color-border); font-size: 0.875em; }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-2) 0; }
  article pre { overflow-x: auto; }
  article table { border-collapse: collapse; table-layout: fixed; width: 100%; margin: var(--wpk-space-2) 0; }
  article th, article td { border: 1px solid var(--wpk-color-border-strong); padding: var(--wpk-space-1) var(--wpk-space-2); text-align: start; vertical-align: top; overflow-wrap: anywhere; }
`;
