import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/files.md', import.meta.url), curl: /```sh\n(\S+=\$\()?curl /, settings: { from: 'schema' } });
