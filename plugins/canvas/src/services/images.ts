import { isUuid, newId, NotFoundError } from '@wpk/sdk';
import { requireBoard } from './boards.js';
import type { CanvasContext } from '../kit.js';

/** Image types a board shows (and its exports embed; PDF embeds PNG and JPEG). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Largest image, in bytes. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * A signed link (PUT, 15 minutes) to upload an image for the board. The answer's `file_key` is
 * what an image object names; the object can be added once the upload is done.
 */
export async function createImageUpload(ctx: CanvasContext, boardId: string, input: { content_type: (typeof IMAGE_TYPES)[number]; size_bytes?: number }) {
  const board = await requireBoard(ctx, boardId);
  const imageId = newId();
  const key = `boards/${board.id}/images/${imageId}`;
  const upload = await ctx.storage.signedUploadUrl(key, { expiresInSeconds: 900, contentType: input.content_type, maxBytes: Math.min(input.size_bytes ?? IMAGE_MAX_BYTES, IMAGE_MAX_BYTES) });
  return { image_id: imageId, file_key: key, content_type: input.content_type, upload: { url: upload.url, method: upload.method, expires_at: upload.expires_at.toISOString() } };
}

/** A download link (five minutes) of one of the board's images. */
export async function readImage(ctx: CanvasContext, boardId: string, imageId: string) {
  const board = await requireBoard(ctx, boardId);
  const key = `boards/${board.id}/images/${imageId}`;
  const stored = isUuid(imageId) ? await ctx.storage.head(key) : null;
  if (!stored) throw new NotFoundError(`Image ${imageId} not found on board ${board.id}`);
  const link = await ctx.storage.signedDownloadUrl(key);
  return { image_id: imageId, file_key: key, content_type: stored.content_type, size_bytes: stored.size_bytes, download: { url: link.url, method: link.method, expires_at: link.expires_at.toISOString() } };
}
