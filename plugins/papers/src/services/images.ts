/**
 * A paper's images: uploaded by one who may edit it (the bytes as base64 in the JSON body, the
 * type sniffed from them: PNG, JPEG, GIF or WebP only), kept in the app's storage under
 * `papers/{paper_id}/images/{image_id}`, and read by anyone who may open the paper through the API
 * (never a public link). A document's `image` node names one by `src`
 * `/papers/{paper_id}/images/{image_id}`; the document's check refuses any other image but an
 * https: or data: URL (docs/decisions/0297-papers-images.md).
 */
import { InvalidError, isUuid, NotFoundError, type RichTextNode } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Paper } from '../models/index.js';
import { ensureLevel, requirePaper } from './access.js';

/** The image types a paper holds, by their first bytes. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The most `max_image_bytes` may be: the base64 of an image keeps the request under the server's 1 MiB body limit. */
export const MAX_IMAGE_BYTES = 750_000;

/** A data URL an imported document keeps its pictures as (the converters make these). */
export const DATA_IMAGE = /^data:image\/(png|jpeg|jpg|gif|webp);base64,[A-Za-z0-9+/=]+$/i;

/** The image type of the bytes, or null: PNG, JPEG, GIF and WebP by their signatures. */
export function sniffImage(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

const keyOf = (paperId: string, imageId: string) => `papers/${paperId}/images/${imageId}`;
/** The `src` an image node gives to name one of the paper's images. */
export const imageSrc = (paperId: string, imageId: string) => `/papers/${paperId}/images/${imageId}`;
const SRC = /^\/papers\/([0-9a-f-]{36})\/images\/([0-9a-f-]{36})$/;

/** The upper bound of an upload: the setting, never above what the body limit lets through. */
const limitOf = (ctx: AnyCtx) => Math.min(ctx.settings.max_image_bytes ?? MAX_IMAGE_BYTES, MAX_IMAGE_BYTES);

/** Stores an image for the paper (one who may edit it); the answer's `src` is what an image node names. */
export async function uploadImage(ctx: Ctx, paperId: string, input: { data: string }) {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'edit', 'add images to');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(input.data)) throw new InvalidError('data: must be the image in base64');
  const bytes = Buffer.from(input.data, 'base64');
  const limit = limitOf(ctx);
  if (bytes.length > limit) throw new InvalidError(`data: an image is at most ${limit} bytes; this one is ${bytes.length}`);
  const type = sniffImage(bytes);
  if (!type) throw new InvalidError('data: not a PNG, JPEG, GIF or WebP image (by its first bytes)');
  const image = await ctx.db.paperImages.create({ paper_id: paper.id, content_type: type, size_bytes: bytes.length, created_by: ctx.member.id });
  await ctx.storage.put(keyOf(paper.id, image.id), bytes, { contentType: type, maxBytes: limit });
  return presentImage(image);
}

export function presentImage(image: { id: string; paper_id: string; content_type: string; size_bytes: number; created_by: string; created_at: Date | string }) {
  return { id: image.id, paper_id: image.paper_id, src: imageSrc(image.paper_id, image.id), content_type: image.content_type, size_bytes: image.size_bytes, created_by: image.created_by, created_at: new Date(image.created_at).toISOString() };
}

/** One of the paper's images with its bytes (anyone who may open the paper). */
export async function readImage(ctx: Ctx, paperId: string, imageId: string): Promise<{ bytes: Buffer; contentType: string }> {
  const { paper } = await requirePaper(ctx, paperId);
  const image = isUuid(imageId) ? await ctx.db.paperImages.findOne({ where: { id: imageId, paper_id: paper.id } }) : null;
  const stored = image ? await ctx.storage.get(keyOf(paper.id, image.id)) : null;
  if (!image || !stored) throw new NotFoundError(`Image ${imageId} not found on paper ${paper.id}`);
  return { bytes: await readAll(stored.body), contentType: image.content_type };
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Every image node of a document. */
function imagesOf(node: RichTextNode, out: RichTextNode[] = []): RichTextNode[] {
  if (node.type === 'image') out.push(node);
  for (const child of node.content ?? []) imagesOf(child, out);
  return out;
}

/**
 * The document's check of its images: each names one of this paper's images (uploaded, by its
 * `src`), or is an https: URL (never fetched by the server: the exports write its alt text) or a
 * data URL of a PNG, JPEG, GIF or WebP; an `alt` is text. A problem, or null.
 */
export async function imageProblem(ctx: AnyCtx, paperId: string, content: RichTextNode): Promise<string | null> {
  const wanted = new Set<string>();
  for (const node of imagesOf(content)) {
    const src = node.attrs?.src;
    const alt = node.attrs?.alt;
    if (alt !== undefined && alt !== null && (typeof alt !== 'string' || alt.length > 1000)) return 'update: an image\'s alt must be text of at most 1000 characters';
    if (typeof src === 'string' && (DATA_IMAGE.test(src) || /^https:\/\/[^\s]{1,2000}$/.test(src))) continue;
    const match = typeof src === 'string' ? SRC.exec(src) : null;
    if (!match || match[1] !== paperId) return `update: an image's src must name one of this paper's images (/papers/${paperId}/images/{image_id}, uploaded by POST /papers/${paperId}/images) or be an https: URL or a data URL of a PNG, JPEG, GIF or WebP; ${JSON.stringify(String(src).slice(0, 120))} is neither`;
    wanted.add(match[2]!);
  }
  if (wanted.size === 0) return null;
  const found = await ctx.db.paperImages.findAll({ where: { paper_id: paperId, id: [...wanted] }, attributes: ['id'] });
  const known = new Set(found.map((row) => row.id));
  const missing = [...wanted].find((imageId) => !known.has(imageId));
  return missing ? `update: the image ${imageSrc(paperId, missing)} was not uploaded to this paper` : null;
}

/** The document with each of the paper's images as a data URL (for the exports, which fetch nothing); one missing keeps its src. */
export async function inlineImages(ctx: AnyCtx, paperId: string, content: RichTextNode): Promise<RichTextNode> {
  const cache = new Map<string, string | null>();
  const walk = async (node: RichTextNode): Promise<RichTextNode> => {
    const out: RichTextNode = { ...node };
    if (node.type === 'image') {
      const match = SRC.exec(String(node.attrs?.src ?? ''));
      if (match && match[1] === paperId) {
        const imageId = match[2]!;
        if (!cache.has(imageId)) {
          const row = await ctx.db.paperImages.findOne({ where: { id: imageId, paper_id: paperId } });
          const stored = row ? await ctx.storage.get(keyOf(paperId, row.id)) : null;
          cache.set(imageId, row && stored ? `data:${row.content_type};base64,${(await readAll(stored.body)).toString('base64')}` : null);
        }
        const data = cache.get(imageId);
        if (data) out.attrs = { ...node.attrs, src: data };
      }
    }
    if (node.content) {
      out.content = [];
      for (const child of node.content) out.content.push(await walk(child));
    }
    return out;
  };
  return walk(content);
}

/** Deletes the bytes of the paper's images (its purge; the rows go with the paper). */
export async function deleteImages(ctx: Ctx, paper: Paper): Promise<void> {
  const images = await ctx.db.paperImages.findAll({ where: { paper_id: paper.id }, attributes: ['id'] });
  for (const image of images) await ctx.storage.delete(keyOf(paper.id, image.id));
}
