/**
 * What the route-table guards seed of the Canvas app (`canvas`): a board with a sticky note, an
 * uploaded image, a comment on the note, a voting session with a vote, and an SVG export.
 */

/** The Canvas app's seeded kinds. */
export type CanvasSeedKind = 'canvas_board' | 'canvas_object' | 'canvas_image' | 'canvas_comment' | 'canvas_session';

/** Path parameters of `/canvas/...` routes, by the kind they name. */
export const CANVAS_PARAM_KINDS: Record<string, CanvasSeedKind> = {
  board_id: 'canvas_board',
  object_id: 'canvas_object',
  image_id: 'canvas_image',
  comment_id: 'canvas_comment',
  session_id: 'canvas_session',
};

/** Body fields of the Canvas app that name its records (an object of a board). */
export const CANVAS_FIELD_KINDS: Record<string, CanvasSeedKind> = { object_id: 'canvas_object', from_id: 'canvas_object', to_id: 'canvas_object' };

/** Canvas path parameters that name nothing a workspace owns. */
export const CANVAS_UNSEEDABLE: Record<string, { fixed: string; reason: string }> = {
  'canvas.target': { fixed: 'svg', reason: "an export target is a format (png, svg, pdf), the same in every workspace; the board whose export it is is probed by board_id (every seeded board has an svg export)" },
};

/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

type Call = (method: string, url: string, body?: unknown) => Promise<any>;
type Put = (url: string, contentType: string, body: Buffer) => Promise<void>;

/** Seeds the Canvas app through its API, as the workspace's owner; every name carries `marker`. */
export async function seedCanvas(call: Call, put: Put, marker: string): Promise<Record<CanvasSeedKind, string>> {
  await call('POST', '/applications/canvas/installations', {});
  await call('PUT', '/applications/canvas/access', { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  const ids = {} as Record<CanvasSeedKind, string>;
  ids.canvas_board = (await call('POST', '/canvas/boards', { name: `${marker} canvas`, description: marker })).id;
  const board = `/canvas/boards/${ids.canvas_board}`;
  ids.canvas_object = (await call('POST', `${board}/objects`, { type: 'sticky', x: 0, y: 0, width: 100, height: 100, text: `${marker} note` })).id;
  const image = await call('POST', `${board}/images`, { content_type: 'image/png', size_bytes: PIXEL.length });
  await put(image.upload.url, 'image/png', PIXEL);
  ids.canvas_image = image.image_id;
  await call('POST', `${board}/objects`, { type: 'image', x: 200, y: 0, width: 50, height: 50, file_key: image.file_key, alt: marker });
  ids.canvas_comment = (await call('POST', `${board}/comments`, { object_id: ids.canvas_object, body: `${marker} comment` })).id;
  ids.canvas_session = (await call('POST', `${board}/vote-sessions`, { title: `${marker} vote`, votes_per_member: 3 })).id;
  await call('POST', `${board}/vote-sessions/${ids.canvas_session}/votes`, { object_id: ids.canvas_object });
  await call('PUT', `${board}/exports/svg`);
  return ids;
}
