import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

// README.md against app.json, as the kit's own apps check their docs pages: every route of the
// authorization table has its `### METHOD /path` section with a curl example (and nothing else
// has one), and the page names every permission, emitted event, subscription and setting.
testAppDoc(test, { manifest, doc: new URL('../README.md', import.meta.url), subscriptions: {}, settings: { from: 'defaults' } });
