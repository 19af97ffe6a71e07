import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/finance.md', import.meta.url), curlIn: 'routes' });

test('docs/apps/finance.md carries the generated worked example', (t) => {
  t.regex(doc, /<!-- worked-example:start -->\n\*\*1\. Record the bill\*\*[\s\S]+Every account nets to zero[^\n]*\n<!-- worked-example:end -->/);
});
