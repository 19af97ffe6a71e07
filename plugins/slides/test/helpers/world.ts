/**
 * What Slides' tests share beyond `startWorld` of @wpk/testing: the app's keys (`world.member()`
 * holds them all but the manager's delete) and a short way to make a deck.
 */
import { startWorld, type TestMember, type World } from '@wpk/testing';
import { fileURLToPath } from 'node:url';
import app from '../../src/index.js';

export const ALL_KEYS = ['slides.decks.create', 'slides.decks.read', 'slides.decks.edit', 'slides.decks.comment', 'slides.presentations.start'];

/** The Calls app's directory: loaded beside Slides where its events are delivered (present in a call). */
export const CALLS_DIR = fileURLToPath(new URL('../../../calls', import.meta.url));

/** The Slides app installed in `subdomain` (with `apps` beside it); `member()` holds every key but slides.decks.delete. */
export function startSlidesWorld(subdomain: string, apps: string[] = []): Promise<World> {
  return startWorld({ app, subdomain, memberKeys: ALL_KEYS, apps, firstParty: true });
}

/** A deck made by `member` (default: one title slide); answers the deck. */
export async function newDeck(member: TestMember, body: Record<string, unknown> = {}) {
  const response = await member.post('/slides/decks', { title: 'Quarterly review', ...body });
  if (response.status !== 200) throw new Error(`deck not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Three slides: a title, a bulleted slide with notes, a chart. */
export const THREE_SLIDES = [
  { id: 's1', layout: 'title' },
  { id: 's2', layout: 'title_content', notes: 'Mention the hiring plan', elements: [{ id: 'title', type: 'text', x: 60, y: 40, width: 1160, height: 100, text: 'Results', font_size: 44, bold: true }, { id: 'body', type: 'text', x: 60, y: 170, width: 1160, height: 500, text: 'Revenue up 12%' }] },
  { id: 's3', layout: 'blank', elements: [{ id: 'c1', type: 'chart', x: 100, y: 100, width: 600, height: 400, chart_type: 'bar', labels: ['Q1', 'Q2'], series: [{ name: 'Revenue', values: [10, 12] }] }] },
];
