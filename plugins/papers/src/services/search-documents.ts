import type { SearchDocument } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Paper } from '../models/index.js';
import { readersOf } from './access.js';

/** A paper in the search index: its title, and the plain text of its JSON snapshot (the first 20,000 characters). */
export function paperSearchDocument(paper: Paper, text: string, readers: string[] | null): SearchDocument {
  return { type: 'paper', id: paper.id, title: paper.title, subtitle: 'Paper', url: `/papers/${paper.id}`, names: [paper.title], details: [text.slice(0, 20_000)], readers };
}

/** (Re)indexes an active paper for its readers; a trashed one leaves the index. */
export async function indexPaper(ctx: AnyCtx, paper: Paper, text?: string): Promise<void> {
  if (paper.status !== 'active') {
    ctx.search.remove('paper', paper.id);
    return;
  }
  const body = text ?? (await ctx.db.paperDocuments.findOne({ where: { paper_id: paper.id }, attributes: ['text'] }))?.text ?? '';
  ctx.search.upsert(paperSearchDocument(paper, body, await readersOf(ctx, paper)));
}
