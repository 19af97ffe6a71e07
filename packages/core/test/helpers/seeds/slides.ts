/**
 * The Slides app's records for the route-table guards: a deck with an uploaded image on a slide, a
 * call started from the deck (delivered to Slides as the broker would), a live presentation of the
 * deck in that call, and a view-only link, so every slides route has a record of each workspace to
 * name.
 */
import { randomUUID } from 'node:crypto';

/** What the Slides app seeds. */
export type SlidesSeedKind = 'slides_deck' | 'slides_image' | 'slides_presentation' | 'slides_link' | 'slides_link_token' | 'slides_call' | 'slides_comment';

/** Path parameters of the app's routes, by first path segment (`/slides/decks/{deck_id}`). */
export const SLIDES_PARAM_KINDS: Record<string, Record<string, SlidesSeedKind>> = {
  slides: { deck_id: 'slides_deck', image_id: 'slides_image', presentation_id: 'slides_presentation', link_id: 'slides_link', token: 'slides_link_token', call_id: 'slides_call', comment_id: 'slides_comment' },
};

/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

type Call = (method: string, url: string, body?: unknown) => Promise<any>;
type Put = (url: string, contentType: string, body: Buffer) => Promise<void>;
/** Delivers an event to the Slides app in the workspace, as the broker would. */
type Deliver = (action: string, payload: Record<string, unknown>) => Promise<unknown>;

/** Seeds Slides through its API as the workspace's owner (`ownerMrn`); every name carries `marker`. */
export async function seedSlides(call: Call, put: Put, deliver: Deliver, marker: string, ownerMrn: string): Promise<Record<SlidesSeedKind, string>> {
  await call('POST', '/applications/slides/installations', {});
  await call('PUT', '/applications/slides/access', { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  const deck = await call('POST', '/slides/decks', { title: `${marker} deck`, slides: [{ layout: 'title' }, { layout: 'title_content', notes: `${marker} notes` }] });
  const image = await call('POST', `/slides/decks/${deck.id}/images`, { content_type: 'image/png', size_bytes: PIXEL.length });
  await put(image.upload.url, 'image/png', PIXEL);
  await call('PATCH', `/slides/decks/${deck.id}`, { version: deck.version, slides: [...deck.slides, { layout: 'image', elements: [{ type: 'image', x: 0, y: 0, width: 100, height: 100, file_key: image.file_key, alt: marker }] }] });
  const callId = randomUUID();
  await deliver('core.calls.call.started', { call_id: callId, join_url: `https://example.test/calls/${callId}`, title: `${marker} call`, mode: 'video', creator_mrn: ownerMrn, participant_mrns: [ownerMrn], source_mrn: `mrn:slides:deck:${deck.id}` });
  const presentation = await call('POST', `/slides/decks/${deck.id}/presentations`, {});
  const link = await call('POST', `/slides/decks/${deck.id}/links`, {});
  const comment = await call('POST', `/slides/decks/${deck.id}/comments`, { slide_id: deck.slides[0].id, element_id: deck.slides[0].elements[0].id, body: `${marker} comment` });
  return { slides_comment: comment.id, slides_deck: deck.id, slides_image: image.image_id, slides_presentation: presentation.id, slides_link: link.id, slides_link_token: String(link.url).split('/').pop()!, slides_call: callId };
}
