import test from 'ava';
import { Resvg } from '@resvg/resvg-js';
import type { TestMember, World } from '@wpk/testing';
import { newBoard, startCanvasWorld } from './helpers/world.js';

let world: World;
let ann: TestMember;
let boardId: string;
let imageKey: string;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test.before(async () => {
  world = await startCanvasWorld('canvasexports');
  ann = await world.member();
  boardId = await newBoard(ann, 'Plan <A & B>');
  const image = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#ff0000"/></svg>').render().asPng();
  const upload = await ann.post(`/canvas/boards/${boardId}/images`, { content_type: 'image/png', size_bytes: image.length });
  imageKey = upload.body.data.file_key;
  const put = await world.platform.follow(upload.body.data.upload.url, { method: 'PUT', body: Buffer.from(image), headers: { 'content-type': 'image/png' } });
  if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
  const post = (body: Record<string, unknown>) => ann.post(`/canvas/boards/${boardId}/objects`, body);
  await post({ id: 'note', type: 'sticky', x: 0, y: 0, width: 200, height: 200, text: 'Ship <it> & "win"', color: '#fff59d' });
  await post({ id: 'goal', type: 'shape', shape: 'diamond', x: 400, y: 0, width: 160, height: 120, text: 'Goal', rotation: 15 });
  await post({ id: 'oval', type: 'shape', shape: 'ellipse', x: 400, y: 200, width: 100, height: 60 });
  await post({ id: 'title', type: 'text', x: 0, y: -80, text: 'Plan', font_size: 40 });
  await post({ id: 'arrow', type: 'connector', x: 0, y: 0, end_x: 0, end_y: 0, from_id: 'note', to_id: 'goal', arrow: 'both' });
  await post({ id: 'picture', type: 'image', x: 700, y: 300, width: 80, height: 80, file_key: imageKey, alt: 'red square' });
  world.takeEvents();
});
test.after.always(() => world?.close());

test.serial('an image is uploaded through a signed link and read back; an image object must name one of the board\'s uploads', async (t) => {
  const imageId = imageKey.split('/').pop();
  const read = await ann.get(`/canvas/boards/${boardId}/images/${imageId}`);
  t.like(read.body.data, { image_id: imageId, file_key: imageKey, content_type: 'image/png' });
  t.true((await world.platform.follow(read.body.data.download.url)).bytes.subarray(0, 8).equals(PNG_SIGNATURE));
  t.is((await ann.get(`/canvas/boards/${boardId}/images/00000000-0000-4000-8000-000000000000`)).status, 404);
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/images`, { content_type: 'application/pdf' })).body, { error: 'content_type must be one of [image/png, image/jpeg, image/gif, image/webp]', field: 'content_type' });
  const missing = `boards/${boardId}/images/00000000-0000-4000-8000-000000000000`;
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'image', x: 0, y: 0, width: 5, height: 5, file_key: missing })).body, { error: `file_key: no image was uploaded under ${missing}` });
});

test.serial('exports: SVG by hand, PNG and PDF rendered from the objects, kept per target, listed, read with a link, deleted', async (t) => {
  const svg = await ann.put(`/canvas/boards/${boardId}/exports/svg`);
  t.is(svg.status, 200);
  t.like(svg.body.data, { board_id: boardId, target: 'svg', content_type: 'image/svg+xml', object_count: 6, created_by: ann.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.export.created', payload: { board_id: boardId, target: 'svg', size_bytes: svg.body.data.size_bytes, object_count: 6, created_by: ann.mrn } }]);
  const svgText = (await world.platform.follow(svg.body.data.download.url)).bytes.toString();
  t.true(svgText.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="860" height="540" viewBox="-40 -120 860 540">'), svgText.slice(0, 120));
  t.true(svgText.includes('<title>Plan &#60;A &#38; B&#62;</title>'));
  t.true(svgText.includes('>Ship &#60;it&#62; &#38; &#34;win&#34;</text>'), 'text is escaped');
  t.true(svgText.includes('<polygon points="480,0 560,60 480,120 400,60"'), 'the diamond');
  t.true(svgText.includes('transform="rotate(15 480 60)"'), 'rotated about its centre');
  t.true(svgText.includes('<ellipse cx="450" cy="230" rx="50" ry="30"'));
  t.true(svgText.includes('<line x1="200" y1="89.47" x2="400" y2="68.42"'), 'the connector joins the edges of its objects, aimed at their centres');
  t.true(svgText.includes('marker-start="url(#arrow-start)"'));
  t.true(svgText.includes('href="data:image/png;base64,'), 'the image is embedded');

  const png = await ann.put(`/canvas/boards/${boardId}/exports/png`);
  const pngBytes = (await world.platform.follow(png.body.data.download.url)).bytes;
  t.true(pngBytes.subarray(0, 8).equals(PNG_SIGNATURE));
  t.deepEqual(pngSize(pngBytes), { width: 860, height: 540 });
  t.is(png.body.data.size_bytes, pngBytes.length);

  const pdf = await ann.put(`/canvas/boards/${boardId}/exports/pdf`);
  const pdfBytes = (await world.platform.follow(pdf.body.data.download.url)).bytes;
  t.is(pdfBytes.subarray(0, 5).toString(), '%PDF-');
  t.regex(pdfBytes.toString('latin1'), /\/MediaBox \[0 0 860 540\]/);
  t.regex(pdfBytes.toString('latin1'), /\/Subtype \/Image/, 'the PNG is embedded');
  world.takeEvents();

  const listed = await ann.get(`/canvas/boards/${boardId}/exports`);
  t.deepEqual(listed.body.data.map((row: { target: string }) => row.target), ['pdf', 'png', 'svg']);
  t.is(listed.body.pagination.total, 3);
  const read = await ann.get(`/canvas/boards/${boardId}/exports/png`);
  t.like(read.body.data, { target: 'png', size_bytes: pngBytes.length });

  await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'sticky', x: 2000, y: 0, width: 100, height: 100 });
  const again = await ann.put(`/canvas/boards/${boardId}/exports/png`);
  t.is(again.body.data.object_count, 7, 'rendering again replaces the target with the board as it is now');
  t.deepEqual(pngSize((await world.platform.follow(again.body.data.download.url)).bytes), { width: 2180, height: 540 });
  world.takeEvents();

  const deleted = await ann.delete(`/canvas/boards/${boardId}/exports/png`);
  t.deepEqual(deleted.body.data, { board_id: boardId, target: 'png', deleted: true });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.export.deleted', payload: { board_id: boardId, target: 'png', deleted_by: ann.mrn } }]);
  t.deepEqual((await ann.get(`/canvas/boards/${boardId}/exports/png`)).body, { error: `Board ${boardId} has no png export` });
  t.deepEqual((await ann.delete(`/canvas/boards/${boardId}/exports/png`)).body, { error: `Board ${boardId} has no png export` });
  t.is((await world.platform.follow(again.body.data.download.url)).status, 404, 'its file is gone');
  t.deepEqual((await ann.put(`/canvas/boards/${boardId}/exports/gif`)).body, { error: 'path parameter target must be one of [png, svg, pdf]', field: 'target' });
  const reader = await world.member(['canvas.boards.read']);
  t.deepEqual((await reader.delete(`/canvas/boards/${boardId}/exports/svg`)).body, { error: 'Missing permission: canvas.boards.export' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('an empty board exports a blank page; deleting a board deletes its exports and images', async (t) => {
  const empty = await newBoard(ann, 'Empty');
  const svg = await ann.put(`/canvas/boards/${empty}/exports/svg`);
  t.true((await world.platform.follow(svg.body.data.download.url)).bytes.toString().includes('width="400" height="300"'));
  const image = await ann.get(`/canvas/boards/${boardId}/images/${imageKey.split('/').pop()}`);
  const pdf = await ann.get(`/canvas/boards/${boardId}/exports/pdf`);
  t.is((await ann.delete(`/canvas/boards/${boardId}`)).status, 200);
  t.is((await world.platform.follow(pdf.body.data.download.url)).status, 404);
  t.is((await world.platform.follow(image.body.data.download.url)).status, 404);
});
