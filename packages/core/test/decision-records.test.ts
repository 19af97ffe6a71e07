import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = path.join(root, 'docs', 'decisions');
const RECORD = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
// A record written on a branch beside others; the lead gives it the next free number when merging.
const UNNUMBERED = /^new-[a-z0-9-]+\.md$/;
const OLD_LOG = ['docs', 'decisions.md'].join('/');
const STATUS = /^(accepted|superseded by \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\))$/;

interface DecisionRecord {
  file: string;
  number: string;
  title: string;
  status: string;
}

function readRecord(file: string): DecisionRecord {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
  const heading = /^# (\d{4})\. (.+)$/.exec(lines[0]);
  const status = /^Status: (.+)$/.exec(lines[2] ?? '');
  if (!heading || !status) throw new Error(`${file}: begins with "# NNNN. Title", a blank line and "Status: ..."`);
  return { file, number: heading[1], title: heading[2], status: status[1] };
}

function records(): DecisionRecord[] {
  return fs.readdirSync(dir).filter((file) => RECORD.test(file)).sort().map(readRecord);
}

/** The index's rows: `| [NNNN](file) | title | status | one line |`. */
function indexRows(): { number: string; file: string; title: string; status: string; summary: string }[] {
  const text = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  return [...text.matchAll(/^\| \[(\d{4})\]\(([^)]+)\) \| (.+?) \| (accepted|superseded by \[\d{4}\]\([^)]+\)) \| (.*) \|$/gm)].map(([, number, file, title, status, summary]) => ({ number, file, title, status, summary }));
}

test('docs/decisions holds only the index, numbered records and records waiting for their number', (t) => {
  const others = fs.readdirSync(dir).filter((file) => file !== 'README.md' && !RECORD.test(file) && !UNNUMBERED.test(file));
  t.deepEqual(others, []);
});

test('every record has the shape: its number in the title, a status, then Context, Decision and Consequences', (t) => {
  for (const file of fs.readdirSync(dir).filter((name) => RECORD.test(name))) {
    const record = readRecord(file);
    t.is(record.number, RECORD.exec(file)![1], `${file}: the title's number is the file's`);
    t.regex(record.status, STATUS, `${file}: status is "accepted" or "superseded by [NNNN](NNNN-title.md)"`);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    t.deepEqual(headings, ['Context', 'Decision', 'Consequences'], `${file}: sections`);
    for (const section of text.split(/^## .+$/m).slice(1)) t.true(section.trim().length > 0, `${file}: a section is empty`);
  }
});

test('record numbers are unique and contiguous from 0001', (t) => {
  const numbers = records().map((record) => Number(record.number));
  t.true(numbers.length > 0);
  t.deepEqual(numbers, numbers.map((_, i) => i + 1));
});

test('the index lists every record once, with its file, title and status, and nothing else', (t) => {
  const rows = indexRows();
  const byFile = new Map(records().map((record) => [record.file, record]));
  t.deepEqual(rows.map((row) => row.file).sort(), [...byFile.keys()].sort(), 'the index lists exactly the records');
  t.is(new Set(rows.map((row) => row.number)).size, rows.length, 'no record is listed twice');
  for (const row of rows) {
    const record = byFile.get(row.file);
    if (!record) continue;
    t.is(row.number, record.number, `${row.file}: number`);
    t.is(row.title, record.title, `${row.file}: title in the index`);
    t.is(row.status, record.status, `${row.file}: status in the index`);
    t.true(row.summary.trim().length > 0, `${row.file}: one line in the index`);
  }
});

test('a superseded record names a record that exists, under its own number', (t) => {
  const files = new Set(records().map((record) => record.file));
  for (const record of records()) {
    const superseded = STATUS.exec(record.status);
    if (!superseded?.[2]) continue;
    const [, , number, file] = superseded;
    t.true(files.has(file), `${record.file} is superseded by ${file}, which does not exist`);
    t.true(file.startsWith(`${number}-`), `${record.file}: the link's text is its file's number`);
    t.not(file, record.file, `${record.file} supersedes itself`);
  }
});

test('every link to a record, in the records, the docs and the code, names a file that exists, and nothing cites the old log', (t) => {
  const files = new Set(records().map((record) => record.file));
  const skip = new Set(['node_modules', '.git', 'dist', '.turbo', 'coverage']);
  const texts: [string, string][] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(full);
      } else if (/\.(ts|tsx|mjs|js|md|json|hbs)$/.test(entry.name) || full === path.join(root, '.ci', 'run')) {
        texts.push([path.relative(root, full), fs.readFileSync(full, 'utf8')]);
      }
    }
  };
  walk(root);
  let links = 0;
  for (const [file, text] of texts) {
    // The log these records replaced (spelled in two parts so that this file does not cite it).
    if (!file.startsWith(`docs${path.sep}decisions${path.sep}`)) t.false(text.includes(OLD_LOG), `${file} refers to ${OLD_LOG}, which the records replaced: cite a record`);
    const inDecisions = file.startsWith(`docs${path.sep}decisions${path.sep}`);
    const pattern = inDecisions ? /(?:\]\(|decisions\/)(\d{4}-[a-z0-9-]+\.md)/g : /decisions\/(\d{4}-[a-z0-9-]+\.md)/g;
    for (const [, target] of text.matchAll(pattern)) {
      links += 1;
      t.true(files.has(target), `${file} links to docs/decisions/${target}, which does not exist`);
    }
  }
  t.true(links > files.size, 'the index and the references were found');
});
