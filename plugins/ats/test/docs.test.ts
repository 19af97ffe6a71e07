import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/ats.md', import.meta.url), curlIn: 'routes', permissions: { grouped: 'bare' }, events: { grouped: 'bare' } });
