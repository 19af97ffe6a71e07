import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/feeds.md', import.meta.url), settings: { from: 'schema', quote: '"' } });
