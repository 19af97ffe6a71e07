import test from 'ava';
import { ApiError } from '@wpk/client/browser';
import { isAppPath } from '../src/bridge/protocol.js';
import { BoardMoves } from '../src/components/board-moves.js';
import { choiceField } from '../src/components/schema-form.js';
import { signedUploadTarget, uploadFileBody } from '../src/components/upload.js';
import { formatBytes, formatDate, formatMoney } from '../src/format.js';
import { fieldOfError, formFieldOf } from '../src/form-errors.js';
import { filledValues, textChanges, textValues } from '../src/form-values.js';
import { memberIdOf, memberMrn } from '../src/members.js';
import { matchRoute, routeQuery, sectionOf } from '../src/router.js';
import { UPLOAD_RETRIES, uploadErrorOf, retryDelay } from '../src/send-file.js';
import { nextSort, sortState, validSort, withQueryParam } from '../src/table-sort.js';

test('a day is the same calendar day in every time zone; an instant is shown in the member\'s', (t) => {
  t.is(formatDate('2027-03-12', { locale: 'en-GB', timeZone: 'Asia/Tokyo' }), '12 Mar 2027');
  t.is(formatDate('2027-03-12', { locale: 'en-GB', timeZone: 'America/Lima' }), '12 Mar 2027');
  t.is(formatDate('2027-03-12T23:30:00Z', { locale: 'en-GB', timeZone: 'Asia/Tokyo', style: 'datetime' }), '13 Mar 2027, 08:30');
  t.is(formatDate('2027-03-12T23:30:00Z', { locale: 'en-US', timeZone: 'America/Lima', style: 'datetime' }), 'Mar 12, 2027, 6:30 PM');
  t.is(formatDate('2027-03-15', { locale: 'en', timeZone: 'UTC', style: 'relative', now: new Date('2027-03-12T22:00:00Z') }), 'in 3 days');
  t.is(formatDate('2027-03-12T21:00:00Z', { locale: 'en', timeZone: 'UTC', style: 'relative', now: new Date('2027-03-12T22:00:00Z') }), '1 hour ago');
  t.is(formatDate('not a date', { locale: 'en', timeZone: 'UTC' }), 'not a date');
});

test('amounts are formatted from their decimal strings, never through a float', (t) => {
  t.is(formatMoney('1234.50', 'EUR', { locale: 'de-DE' }), '1.234,50\u00a0€');
  t.is(formatMoney('0.10', 'USD', { locale: 'en-US' }), '$0.10');
  t.is(formatMoney('12345678901234567.89', 'USD', { locale: 'en-US' }), '$12,345,678,901,234,567.89');
  t.is(formatBytes(1_500_000, 'en'), '1.5 MB');
  t.is(formatBytes(26, 'en'), '26 bytes');
  t.is(formatBytes(1, 'en'), '1 byte');
});

test("a refusal lands on the form field its field names, or the one that field lies under", (t) => {
  const fields = ['title', 'due_date', 'items', 'address'];
  const refusal = (body: object) => new ApiError(400, (body as { error: string }).error, body, {});
  t.is(fieldOfError(refusal({ error: 'title is not allowed to be empty', field: 'title' }), fields), 'title');
  t.is(fieldOfError(refusal({ error: 'items[0].amount must be a number', field: 'items[0].amount' }), fields), 'items');
  t.is(fieldOfError(refusal({ error: 'address.city is required', field: 'address.city' }), fields), 'address');
  // The field decides, not the message's words: a message worded otherwise still lands.
  t.is(fieldOfError(new ApiError(409, 'A board named "Q3" already exists', { error: 'A board named "Q3" already exists', field: 'title' }, {}), fields), 'title');
  // A field that is none of the form's is the form's own error, even when the message starts with one.
  t.is(fieldOfError(refusal({ error: 'title of the template is archived', field: 'template_id' }), fields), null);
  t.is(fieldOfError(refusal({ error: 'title is required', field: 'titles' }), fields), null);
  t.is(new ApiError(400, 'x', { error: 'x', field: 7 }, {}).field, null);
  t.is(new ApiError(500, 'HTTP 500', 'oops', {}).field, null);
  t.is(formFieldOf('due_date', fields), 'due_date');
  t.is(formFieldOf('due_dates[1]', fields), null);
});

test("a refusal without field falls back to its message's first word (the platform's rule: the field first)", (t) => {
  const fields = ['title', 'due_date', 'items'];
  t.is(fieldOfError('title length must be at most 200 characters', fields), 'title');
  t.is(fieldOfError('"due_date" must be a valid date', fields), 'due_date');
  t.is(fieldOfError('items[0].amount must be a number', fields), 'items');
  t.is(fieldOfError('Board 42 is archived', fields), null);
  t.is(fieldOfError('', fields), null);
  t.is(fieldOfError(new ApiError(400, 'due_date must be a valid date', { error: 'due_date must be a valid date' }, {}), fields), 'due_date');
  t.is(fieldOfError(new Error('title must be set'), fields), 'title');
});

test("an app navigates to its own paths only: no scheme, no other host, no way up", (t) => {
  for (const path of ['/', '/boards/42', '/tasks/1?tab=comments', '/a#b']) t.true(isAppPath(path), path);
  for (const path of ['', 'boards', '//evil.example/x', 'https://evil.example/', '/../admin', '/a/../../b', '/a\\\\b', '/a\nb', 42, null]) t.false(isAppPath(path), String(path));
});

test('routes match by segment, and their query is read apart', (t) => {
  t.deepEqual(matchRoute('/boards/:board_id', '/boards/42?lane=Done'), { board_id: '42' });
  t.deepEqual(matchRoute('/boards/:board_id', '/boards/a%20b'), { board_id: 'a b' });
  t.is(matchRoute('/boards/:board_id', '/boards'), null);
  t.is(matchRoute('/boards/:board_id', '/tasks/42'), null);
  t.is(routeQuery('/boards/1?lane=Done').get('lane'), 'Done');
});

test("an app's navigation marks the section of the path's first segment, else the home section", (t) => {
  const sections = ['/', '/trash', '/admin'];
  t.is(sectionOf('/', sections), '/');
  t.is(sectionOf('/trash', sections), '/trash');
  t.is(sectionOf('/trash?page=2', sections), '/trash');
  t.is(sectionOf('/admin/anything', sections), '/admin');
  t.is(sectionOf('/files/42', sections), '/');
  t.is(sectionOf('/trashy', sections), '/');
  t.is(sectionOf('/new', ['/companies', '/new']), '/new');
  t.is(sectionOf('/x', []), '/');
});

test("a table's header sorts ascending first, then flips; aria-sort says which", (t) => {
  t.is(nextSort(null, 'name'), 'name');
  t.is(nextSort('name', 'name'), '-name');
  t.is(nextSort('-name', 'name'), 'name');
  t.is(nextSort('-name', 'email'), 'email');
  t.is(sortState('name', 'name'), 'ascending');
  t.is(sortState('-name', 'name'), 'descending');
  t.is(sortState('-name', 'email'), 'none');
  t.is(sortState(null, 'name'), 'none');
});

test("a table takes its sort from the URL only when a sortable column has that key", (t) => {
  t.is(validSort('-due_date', ['title', 'due_date']), '-due_date');
  t.is(validSort('title', ['title', 'due_date']), 'title');
  t.is(validSort('password', ['title', 'due_date']), null);
  t.is(validSort('--title', ['title']), null);
  t.is(validSort('', ['title']), null);
  t.is(validSort(null, ['title']), null);
});

test("the sort goes into the screen's path, the path's other parameters kept in order", (t) => {
  t.is(withQueryParam('/', 'sort', 'name'), '/?sort=name');
  t.is(withQueryParam('/?company_mrn=mrn%3Acompanies%3Acompany%3A1', 'sort', '-name'), '/?company_mrn=mrn%3Acompanies%3Acompany%3A1&sort=-name');
  t.is(withQueryParam('/list?sort=name&x=1', 'sort', '-name'), '/list?sort=-name&x=1');
  t.is(withQueryParam('/list?sort=name&x=1', 'sort', null), '/list?x=1');
  t.is(withQueryParam('/list?sort=name#top', 'sort', null), '/list#top');
});

test("a record's form shows its text fields, '' where a field is null or missing", (t) => {
  t.deepEqual(textValues({ id: '1', name: 'Acme', domain: null, size: '11-50' }, ['name', 'domain', 'industry']), { name: 'Acme', domain: '', industry: '' });
});

test("a new record's body is what was filled in, trimmed", (t) => {
  t.deepEqual(textChanges({ name: '  Acme ', domain: '', notes: '   ' }, ['name', 'domain', 'notes'], null, ['notes']), { name: 'Acme' });
});

test("an edit's body is what changed: an emptied field cleared with null, or '' where the API keeps long text empty", (t) => {
  const shown = { name: 'Acme', domain: 'acme.com', industry: '', notes: 'Long story' };
  t.deepEqual(textChanges({ name: 'Acme ', domain: '', industry: 'Tools', notes: '' }, ['name', 'domain', 'industry', 'notes'], shown, ['notes']), { domain: null, industry: 'Tools', notes: '' });
  t.deepEqual(textChanges({ ...shown }, ['name', 'domain', 'industry', 'notes'], shown), {});
});

test("a member MRN gives its member id; another kind of MRN, or none, gives none", (t) => {
  t.is(memberIdOf('mrn:account:member:7f3c2a10-0000-4000-8000-000000000001'), '7f3c2a10-0000-4000-8000-000000000001');
  t.is(memberIdOf('mrn:account:workspace:7f3c2a10'), null);
  t.is(memberIdOf('mrn:account:members:7f3c2a10'), null);
  t.is(memberIdOf(''), null);
  t.is(memberIdOf(null), null);
  t.is(memberIdOf(undefined), null);
  t.is(memberIdOf(memberMrn('42')), '42');
  t.is(memberMrn('42'), 'mrn:account:member:42');
});

test("a form's filled-in values leave out the empty ones ('', null, missing) and keep false and 0", (t) => {
  t.deepEqual(filledValues({ name: 'Desk', sku: '', unit_price: null, currency: undefined, active: false, quantity: 0 }), { name: 'Desk', active: false, quantity: 0 });
  t.deepEqual(filledValues({}), {});
});

test("a board's moves: Alt+→ / Alt+← name the next or previous column, a dropped card's id goes to its column, the column under a card is marked", (t) => {
  let updates = 0;
  const moves = new BoardMoves({ addController: () => undefined, removeController: () => undefined, requestUpdate: () => void updates++, updateComplete: Promise.resolve(true) });
  const key = (key: string, altKey: boolean) => {
    const event = { key, altKey, prevented: false, preventDefault: () => void (event.prevented = true) };
    return event;
  };
  const lanes = ['To do', 'In progress', 'Done'];
  const right = key('ArrowRight', true);
  t.is(moves.step(right as unknown as KeyboardEvent, lanes, 'To do'), 'In progress');
  t.true(right.prevented);
  t.is(moves.step(key('ArrowLeft', true) as unknown as KeyboardEvent, lanes, 'In progress'), 'To do');
  t.is(moves.step(key('ArrowRight', true) as unknown as KeyboardEvent, lanes, 'Done'), undefined);
  t.is(moves.step(key('ArrowLeft', true) as unknown as KeyboardEvent, lanes, 'To do'), undefined);
  const plain = key('ArrowRight', false);
  t.is(moves.step(plain as unknown as KeyboardEvent, lanes, 'To do'), null);
  t.false(plain.prevented);
  t.is(moves.step(key('Enter', true) as unknown as KeyboardEvent, lanes, 'To do'), null);

  const dropped: string[] = [];
  const drop = moves.column('Done', (id) => dropped.push(id));
  const drag = { preventDefault: () => undefined, dataTransfer: { getData: (type: string) => (type === 'text/plain' ? 'task-7' : '') } } as unknown as DragEvent;
  drop.dragover(drag);
  drop.dragover(drag);
  t.is(moves.over, 'Done');
  t.is(updates, 1);
  drop.drop(drag);
  t.is(moves.over, null);
  t.is(updates, 2);
  t.deepEqual(dropped, ['task-7']);
});

test('a choice of records is their ids, in order, each read as its name', (t) => {
  t.deepEqual(choiceField('Department', [{ id: 'd2', name: 'Sales' }, { id: 'd1', name: 'Research' }]), { type: 'string', title: 'Department', enum: ['d2', 'd1'], 'x-labels': { d2: 'Sales', d1: 'Research' } });
  t.deepEqual(choiceField('Head', []), { type: 'string', title: 'Head', enum: [], 'x-labels': {} });
});

test("a file to upload is named, sized (one byte at the least) and typed when the browser knows its type; its bytes go by PUT with that type", (t) => {
  const typed = new File(['%PDF'], 'q3.pdf', { type: 'application/pdf' });
  const empty = new File([], 'notes');
  t.deepEqual(uploadFileBody(typed), { filename: 'q3.pdf', size_bytes: 4, content_type: 'application/pdf' });
  t.deepEqual(uploadFileBody(empty), { filename: 'notes', size_bytes: 1 });
  t.deepEqual(signedUploadTarget('https://files.example/put?sig=1', typed), { url: 'https://files.example/put?sig=1', method: 'PUT', headers: { 'content-type': 'application/pdf' } });
  t.deepEqual(signedUploadTarget('https://files.example/put?sig=2', empty), { url: 'https://files.example/put?sig=2', method: 'PUT' });
});

test("a file is sent again after a failure of the connection or a request for a later try, never after a refusal; the message is the server's", (t) => {
  const refusal = { status: 413, text: JSON.stringify({ error: 'The file is larger than 10 bytes, the most this link accepts' }) };
  const bare = { status: 400, text: '' };
  const cut = { status: 0, text: '' };
  // No answer, a bare 400 (the connection's, not a verdict: every refusal carries {"error"}), 408 and 5xx: again, after 0.5 s, then 1.5 s.
  t.deepEqual([cut, bare, { status: 408, text: '{"error":"The request was not received in full within 10000 ms"}' }, { status: 502, text: '<html>' }].map((answer) => retryDelay(answer, 0)), [500, 500, 500, 500]);
  t.is(retryDelay(cut, 1), 1500);
  t.is(UPLOAD_RETRIES, 2);
  t.is(retryDelay(cut, UPLOAD_RETRIES), null);
  // Retry-After is honoured, up to 5 s.
  t.is(retryDelay({ status: 503, text: '{"error":"busy"}', retryAfter: '2' }, 0), 2000);
  t.is(retryDelay({ status: 429, text: '{"error":"slow down"}', retryAfter: '60' }, 0), 5000);
  // Refusals are final: the platform's 400 with its error, 403, 413, 415.
  t.deepEqual([refusal, { status: 400, text: '{"error":"Content-Type \\"x\\" is not a media type"}' }, { status: 403, text: '{"error":"This link has expired"}' }, { status: 415, text: '{"error":"This link accepts only video/webm (send Content-Type: video/webm)"}' }].map((answer) => retryDelay(answer, 0)), [null, null, null, null]);
  t.is(uploadErrorOf(refusal), 'The file is larger than 10 bytes, the most this link accepts');
  t.is(uploadErrorOf(bare), 'Upload failed (400)');
  t.is(uploadErrorOf(cut), 'The upload was interrupted');
});
