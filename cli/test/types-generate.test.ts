import test from 'ava';
import type { AppManifest } from '@wpk/sdk';
import { generateAppTypes } from '../src/types/generate.js';

// `wpk types` for an app that emits or receives nothing: a type with no key, never an empty
// interface (which would accept any value, and which the lint rules refuse).

const manifest = { slug: 'quiet', name: 'Quiet', version: '0.1.0', permissions: [], authorization: [] } as unknown as AppManifest;

test('an app with no events and no subscriptions gets key-less EmittedEvents and ReceivedEvents types', async (t) => {
  const source = await generateAppTypes(manifest);
  t.true(source.includes('export type EmittedEvents = Record<string, never>;'));
  t.true(source.includes('export type ReceivedEvents = Record<string, never>;'));
  t.false(/interface (Emitted|Received)Events \{\s*\}/.test(source));
});

test('an app with subscriptions still gets an interface listing them', async (t) => {
  const source = await generateAppTypes({ ...manifest, subscriptions: [{ action: 'system.app.installed', handler: '/events/installed' }] } as AppManifest);
  t.regex(source, /export interface ReceivedEvents \{\n {2}'system\.app\.installed': SystemAppInstalledPayload;\n\}/);
  t.true(source.includes('export type EmittedEvents = Record<string, never>;'));
});
