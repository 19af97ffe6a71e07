import { memberMrn, NotFoundError } from '@wpk/sdk';
import type { ExportTarget } from '../models/index.js';
import { boundsOf, type ImageBytes } from '../render/layout.js';
import { renderPng } from '../render/png.js';
import { renderSvg } from '../render/svg.js';
import { requireBoard } from './boards.js';
import type { CanvasContext } from '../kit.js';
import { loadDocument } from './documents.js';
import { publishToBoard } from './live.js';
import { readObjects } from './objects-model.js';
import { presentExport } from './present.js';

const CONTENT_TYPES: Record<ExportTarget, string> = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' };

/** Where a board's export of a target is kept in the app's storage. */
export function exportKey(boardId: string, target: ExportTarget): string {
  return `boards/${boardId}/exports/board.${target}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Renders the board as it is now to one target and keeps it (replacing that target's previous
 * export): SVG written by hand, PNG rasterised from it, PDF drawn with pdfkit.
 */
export async function renderExport(ctx: CanvasContext, boardId: string, target: ExportTarget) {
  const board = await requireBoard(ctx, boardId);
  const { doc } = await loadDocument(ctx, board.id);
  const objects = readObjects(doc);
  const images: ImageBytes = new Map();
  for (const object of objects) {
    if (object.type !== 'image' || !object.file_key || images.has(object.file_key)) continue;
    const stored = await ctx.storage.get(object.file_key);
    if (stored) images.set(object.file_key, { bytes: await readAll(stored.body), content_type: stored.content_type });
  }
  let bytes: Buffer;
  // pdfkit loads on the first PDF export, not with the app.
  if (target === 'pdf') bytes = await (await import('../render/pdf.js')).renderPdf(objects, images, board.name);
  else {
    const svg = renderSvg(objects, images, board.name);
    const bounds = boundsOf(objects);
    bytes = target === 'svg' ? Buffer.from(svg) : renderPng(svg, bounds.width, bounds.height);
  }
  const key = exportKey(board.id, target);
  const stored = await ctx.storage.put(key, bytes, { contentType: CONTENT_TYPES[target] });
  const row = await ctx.db.exports.upsert(
    { board_id: board.id, target, storage_key: key, content_type: CONTENT_TYPES[target], size_bytes: stored.size_bytes, object_count: objects.length, created_by: ctx.member.id },
    { conflictFields: ['board_id', 'target'] },
  );
  ctx.events.stage('core.canvas.export.created', { board_id: board.id, target, size_bytes: row.size_bytes, object_count: row.object_count, created_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'export.created', presentExport(row));
  return { ...presentExport(row), download: linkOf(await ctx.storage.signedDownloadUrl(key, { filename: `${fileName(board.name)}.${target}` })) };
}

function fileName(name: string): string {
  // The board's own name: the download's Content-Disposition carries it exactly (RFC 6266).
  return name.trim().slice(0, 200) || 'board';
}

/** The board's export targets, in target order. */
export async function listExports(ctx: CanvasContext, boardId: string) {
  const board = await requireBoard(ctx, boardId);
  const rows = await ctx.db.exports.findAll({ where: { board_id: board.id }, order: [['target', 'ASC']] });
  return rows.map(presentExport);
}

async function requireExport(ctx: CanvasContext, boardId: string, target: ExportTarget) {
  const board = await requireBoard(ctx, boardId);
  const row = await ctx.db.exports.findOne({ where: { board_id: board.id, target } });
  if (!row) throw new NotFoundError(`Board ${board.id} has no ${target} export`);
  return { board, row };
}

/** One export target with a download link (five minutes). */
export async function readExport(ctx: CanvasContext, boardId: string, target: ExportTarget) {
  const { board, row } = await requireExport(ctx, boardId, target);
  return { ...presentExport(row), download: linkOf(await ctx.storage.signedDownloadUrl(row.storage_key, { filename: `${fileName(board.name)}.${target}` })) };
}

/** Deletes an export target and its file. */
export async function deleteExport(ctx: CanvasContext, boardId: string, target: ExportTarget) {
  const { board, row } = await requireExport(ctx, boardId, target);
  await ctx.db.exports.destroy({ where: { board_id: board.id, target } });
  await ctx.storage.delete(row.storage_key);
  ctx.events.stage('core.canvas.export.deleted', { board_id: board.id, target, deleted_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'export.deleted', { board_id: board.id, target });
  return { board_id: board.id, target, deleted: true as const };
}

function linkOf(link: { url: string; method: string; expires_at: Date }) {
  return { url: link.url, method: link.method, expires_at: link.expires_at.toISOString() };
}
