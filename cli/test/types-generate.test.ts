import test from 'ava';
import type { AppManifest } from '@wpk/sdk';
import fs from 'node:fs';
import { generateAppTypes, generatePlatformPayloads, PLATFORM_PAYLOADS_FILE } from '../src/types/generate.js';

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

test('a subscription to a platform event names the SDK\'s payload type instead of copying it', async (t) => {
  const source = await generateAppTypes({ ...manifest, subscriptions: [{ action: 'core.account.member.removed', handler: '/events/removed' }] } as AppManifest);
  t.true(source.includes("import type { PlatformPayloads } from '@wpk/sdk';"));
  t.true(source.includes("export type CoreAccountMemberRemovedPayload = PlatformPayloads['core.account.member.removed'];"));
  t.false(source.includes('interface CoreAccountMemberRemovedPayload'));
});

test('an event whose payload reads like an earlier one\'s gets an alias of it, with its own description', async (t) => {
  const schema = { type: 'object', properties: { note_id: { type: 'string' }, title: { type: 'string' } }, required: ['note_id'], additionalProperties: false };
  const events = [
    { action: 'core.quiet.note.created', description: 'A note was created.', schema },
    { action: 'core.quiet.note.updated', description: 'A note was changed.', schema: { ...schema, properties: { title: { type: 'string' }, note_id: { type: 'string' } } } },
    { action: 'core.quiet.note.deleted', description: 'A note was deleted.', schema: { ...schema, required: [] } },
  ];
  const source = await generateAppTypes({ ...manifest, events } as unknown as AppManifest);
  t.true(source.includes('export interface CoreQuietNoteCreatedPayload {'));
  t.true(source.includes('/**\n * A note was changed.\n */\nexport type CoreQuietNoteUpdatedPayload = CoreQuietNoteCreatedPayload;'));
  // A different schema (nothing required) is its own type.
  t.true(source.includes('export interface CoreQuietNoteDeletedPayload {'));
});

test('the SDK\'s PlatformPayloads is the one generated from the catalog', async (t) => {
  t.is(fs.readFileSync(PLATFORM_PAYLOADS_FILE, 'utf8'), await generatePlatformPayloads(), 'packages/sdk/src/manifest/platform-payloads.ts is stale: run npx tsx cli/scripts/platform-payloads.ts');
});
