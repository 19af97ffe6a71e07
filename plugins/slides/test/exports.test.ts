import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { API_VERSION, type TestMember } from '@wpk/testing';
import { newDeck, startSlidesWorld } from './helpers/world.js';

const world = await startSlidesWorld('slidesexports');
const [ann, bob] = await world.members(2);
const exporter = await world.member(['slides.decks.read', 'slides.decks.export', 'slides.decks.share']);
test.after.always(() => world.close());

/** Page 1 of a PDF rasterised by poppler's pdftoppm at 72 dpi (1 px per CSS px × 0.75): width, height and RGB bytes. */
function firstPage(pdf: Buffer): { width: number; height: number; rgb: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'slides-pdf-'));
  try {
    writeFileSync(path.join(dir, 'deck.pdf'), pdf);
    execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-singlefile', path.join(dir, 'deck.pdf'), path.join(dir, 'page')]);
    const ppm = readFileSync(path.join(dir, 'page.ppm'));
    // P6 header: "P6\n<width> <height>\n<max>\n" then RGB bytes.
    const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString('latin1'))!;
    return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The entries of a zip file (stored or deflated), by name: enough to read a .pptx. */
function unzip(zip: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(offset + 10);
    const size = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extra = zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString();
    const data = zip.subarray(local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28), local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28) + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    offset += 46 + nameLength + extra;
  }
  return files;
}

/** A file answer with its bytes (the harness's member requests read bodies as text). */
async function download(member: TestMember, path: string) {
  const response = await world.platform.runtime.server.inject({ method: 'GET', url: path, headers: { host: `slidesexports.${world.platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, cookie: member.cookie } });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

const hex = (color: string) => [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16));

test.serial('PDF (Chromium print): one page per slide at 16:9; page 1 matches the slide pixel for pixel (pdftoppm)', async (t) => {
  // Slide 1 is shapes on a coloured background: its expected image is known exactly.
  const shapes = [
    { x: 100, y: 100, width: 400, height: 200, fill: '#1d4ed8' },
    { x: 700, y: 360, width: 480, height: 280, fill: '#dc2626' },
  ];
  const deck = await newDeck(ann, {
    title: 'Pixels',
    theme: { background: '#fde68a' },
    slides: [{ layout: 'blank', elements: shapes.map((shape) => ({ type: 'shape', shape: 'rect', ...shape })) }, { layout: 'title_content', notes: 'Second', elements: [{ type: 'text', x: 60, y: 40, width: 1160, height: 100, text: 'Page two' }] }],
  });
  const response = await download(exporter, `/slides/decks/${deck.id}/export?format=pdf`);
  t.is(response.status, 200);
  t.is(response.headers['content-type'], 'application/pdf');
  t.is(response.headers['content-disposition'], `attachment; filename="Pixels.pdf"; filename*=UTF-8''Pixels.pdf`);
  const pdf = response.bytes;
  t.is(pdf.subarray(0, 5).toString(), '%PDF-');
  t.is(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length, 2, 'one page per slide');

  const page = firstPage(pdf);
  t.deepEqual([page.width, page.height], [960, 540], '1280 × 720 CSS px = 960 × 540 pt, at 72 dpi');
  const scale = page.width / 1280;
  const expected = (x: number, y: number) => {
    const shape = shapes.find((one) => x >= one.x * scale && x < (one.x + one.width) * scale && y >= one.y * scale && y < (one.y + one.height) * scale);
    return hex(shape ? shape.fill : '#fde68a');
  };
  let differing = 0;
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      const at = (y * page.width + x) * 3;
      const want = expected(x, y);
      if (Math.abs(page.rgb[at] - want[0]) + Math.abs(page.rgb[at + 1] - want[1]) + Math.abs(page.rgb[at + 2] - want[2]) > 24) differing += 1;
    }
  }
  t.true(differing / (page.width * page.height) < 0.005, `${differing} of ${page.width * page.height} pixels differ from the slide`);

  // Three at once, more than the shared browser prints together: the third waits its turn, and each
  // answers the deck's two pages.
  const together = await Promise.all([1, 2, 3].map(() => download(exporter, `/slides/decks/${deck.id}/export?format=pdf`)));
  t.deepEqual(
    together.map((one) => [one.status, one.bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length]),
    [
      [200, 2],
      [200, 2],
      [200, 2],
    ],
  );
});

test.serial('PPTX (pptxgenjs): one slide per slide, the text, table and chart, speaker notes kept', async (t) => {
  const deck = await newDeck(ann, {
    title: 'Board / update',
    slides: [
      { layout: 'title' },
      { layout: 'blank', notes: 'Say hello to the board', elements: [{ type: 'table', x: 0, y: 0, width: 400, height: 100, rows: [['Region', 'Sales']] }, { type: 'chart', x: 500, y: 0, width: 400, height: 300, chart_type: 'bar', labels: ['Q1'], series: [{ name: 'Sales', values: [3] }] }] },
    ],
  });
  const response = await download(exporter, `/slides/decks/${deck.id}/export?format=pptx`);
  t.is(response.status, 200);
  t.is(response.headers['content-type'], 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
  t.is(response.headers['content-disposition'], `attachment; filename="Board  update.pptx"; filename*=UTF-8''Board%20%20update.pptx`);
  const files = unzip(response.bytes);
  t.deepEqual([...files.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort(), ['ppt/slides/slide1.xml', 'ppt/slides/slide2.xml']);
  t.true(files.get('ppt/slides/slide1.xml')!.includes('Board / update'));
  t.true(files.get('ppt/slides/slide2.xml')!.includes('Region'));
  t.true([...files.keys()].some((name) => name.startsWith('ppt/charts/chart')));
  t.true([...files.entries()].some(([name, text]) => name.startsWith('ppt/notesSlides/') && text.includes('Say hello to the board')));
});

test.serial('export needs slides.decks.export and a known format', async (t) => {
  const deck = await newDeck(ann);
  t.deepEqual((await bob.get(`/slides/decks/${deck.id}/export?format=pdf`)).body, { error: 'Missing permission: slides.decks.export' });
  t.deepEqual((await exporter.get(`/slides/decks/${deck.id}/export?format=key`)).body, { error: 'query parameter format must be one of [pdf, pptx]', field: 'format' });
});

test.serial('a view-only link shows the slides without speaker notes to anyone holding it, until deleted; making one emits deck.shared', async (t) => {
  const deck = await newDeck(ann, { slides: [{ layout: 'title_content', notes: 'Secret notes' }] });
  world.takeEvents();
  const made = await exporter.post(`/slides/decks/${deck.id}/links`, {});
  t.is(made.status, 200);
  const link = made.body.data;
  t.like(link, { deck_id: deck.id, created_by: exporter.id, expires_at: null });
  t.regex(link.url, /\/slides\/shared\/[A-Za-z0-9_-]{32}$/);
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.shared', payload: { deck_id: deck.id, deck_mrn: deck.mrn, link_id: link.id, shared_by: exporter.mrn } }]);
  const token = link.url.split('/').pop();

  const shared = await world.workspace.anonymous.get(`/slides/shared/${token}`);
  t.is(shared.status, 200);
  t.like(shared.body.data, { id: deck.id, title: 'Quarterly review', slide_count: 1 });
  t.is(shared.body.data.slides[0].notes, '', 'speaker notes stay private');
  t.false('creator_id' in shared.body.data);

  const listed = await exporter.get(`/slides/decks/${deck.id}/links`);
  t.deepEqual(
    listed.body.data.map((row: { id: string; url?: string }) => [row.id, row.url]),
    [[link.id, undefined]],
    'the link itself is shown once',
  );
  t.deepEqual((await ann.post(`/slides/decks/${deck.id}/links`, {})).body, { error: 'Missing permission: slides.decks.share' });
  t.deepEqual((await exporter.post(`/slides/decks/${deck.id}/links`, { expires_at: '2020-01-01T00:00:00Z' })).body, { error: 'expires_at must be in the future', field: 'expires_at' });

  t.deepEqual((await exporter.delete(`/slides/links/${link.id}`)).body.data, { id: link.id, deleted: true });
  const gone = await world.workspace.anonymous.get(`/slides/shared/${token}`);
  t.deepEqual([gone.status, gone.body], [404, { error: 'Link not found or expired' }]);
});
