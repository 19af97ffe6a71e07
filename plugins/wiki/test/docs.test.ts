import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/wiki.md', import.meta.url), curlIn: 'routes', subscriptions: {}, settings: { from: 'schema', quote: '"' } });
