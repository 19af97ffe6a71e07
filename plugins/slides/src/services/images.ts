import { isUuid, newId, NotFoundError } from '@wpk/sdk';
import type { SlidesContext } from '../kit.js';
import { requireDeck } from './decks.js';

/** Image types a slide shows. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
/** Largest image, in bytes. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * A signed link (PUT, 15 minutes) to upload an image into the deck's storage. The answer's
 * `file_key` is what an image element names, once the upload is done.
 */
export async function createImageUpload(ctx: SlidesContext, deckId: string, input: { content_type: (typeof IMAGE_TYPES)[number]; size_bytes?: number }) {
  const deck = await requireDeck(ctx, deckId);
  const imageId = newId();
  const key = `decks/${deck.id}/images/${imageId}`;
  const upload = await ctx.storage.signedUploadUrl(key, { expiresInSeconds: 900, contentType: input.content_type, maxBytes: Math.min(input.size_bytes ?? IMAGE_MAX_BYTES, IMAGE_MAX_BYTES) });
  return { image_id: imageId, file_key: key, content_type: input.content_type, upload: { url: upload.url, method: upload.method, expires_at: upload.expires_at.toISOString() } };
}

/** A download link (five minutes) of one of the deck's images. */
export async function readImage(ctx: SlidesContext, deckId: string, imageId: string) {
  const deck = await requireDeck(ctx, deckId);
  const key = `decks/${deck.id}/images/${imageId}`;
  const stored = isUuid(imageId) ? await ctx.storage.head(key) : null;
  if (!stored) throw new NotFoundError(`Image ${imageId} not found in deck ${deck.id}`);
  const link = await ctx.storage.signedDownloadUrl(key);
  return { image_id: imageId, file_key: key, content_type: stored.content_type, size_bytes: stored.size_bytes, download: { url: link.url, method: link.method, expires_at: link.expires_at.toISOString() } };
}
