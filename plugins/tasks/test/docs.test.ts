import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/tasks.md', import.meta.url), permissions: { grouped: 'bare' }, events: { grouped: 'quoted' } });
