import test from 'ava';
import { validateManifest, formatManifestProblem, type ManifestCodeFacts } from './validate.js';

const firstParty = () => ({
  slug: 'tasks',
  name: 'Tasks',
  version: '1.0.0',
  description: 'Boards and tasks.',
  tile: { name: 'Tasks', icon: 'check-square', color: '#3366ff' },
  permissions: [
    { key: 'tasks.tasks.create', label: 'Create tasks', category: 'Tasks' },
    { key: 'tasks.tasks.read', label: 'Read tasks', category: 'Tasks' },
    { key: 'tasks.tasks.delete', label: 'Delete tasks', category: 'Tasks' },
  ],
  authorization: [
    { method: 'POST', path: '/tasks', chain: ['tasks.tasks.create'] },
    { method: 'GET', path: '/tasks/{id}', chain: ['tasks.tasks.read'] },
    { method: 'DELETE', path: '/tasks/{id}', chain: [{ any_of: [{ check: 'task_creator' }, 'tasks.tasks.delete'], message: 'Cannot delete this task' }] },
    { method: 'GET', path: '/tasks/health', public: true },
  ],
  events: [
    { action: 'core.tasks.task.created', description: 'A task was created.', schema: { type: 'object', properties: { task_id: { type: 'string' }, title: { type: 'string' } }, required: ['task_id'] }, redact: ['title'] },
    { action: 'core.calls.call.reminder', description: 'Catalog name kept as the specification has it.', schema: { type: 'object' } },
  ],
  subscriptions: [{ action: 'system.app.installed', handler: '/events/system-app-installed', max_retries: 5 }],
  search: [{ type: 'task', label: 'Tasks', permissions: ['tasks.tasks.read'], names: ['title'], details: ['description'] }],
  settings: { schema: { type: 'object', properties: { default_lane: { type: 'string' } }, required: ['default_lane'] }, defaults: { default_lane: 'Todo' } },
});

const extApp = () => ({
  slug: 'hello',
  publisher: 'acme',
  name: 'Hello',
  version: '0.1.0',
  permissions: [{ key: 'ext.acme.hello.greetings.create', label: 'Send greetings', category: 'Greetings' }],
  authorization: [{ method: 'POST', path: '/greetings', chain: ['ext.acme.hello.greetings.create'] }],
  events: [{ action: 'ext.acme.hello.greeting.sent', description: 'A greeting was sent.', schema: { type: 'object', properties: { greeting_id: { type: 'string' } } } }],
  subscriptions: [{ action: 'ext.acme.hello.greeting.sent', handler: '/events/greeting-sent' }],
});

const tasksCode = (): ManifestCodeFacts => ({
  routes: [
    { method: 'POST', path: '/tasks' },
    { method: 'GET', path: '/tasks/{task_id}' },
    { method: 'DELETE', path: '/tasks/{id}' },
    { method: 'GET', path: '/tasks/health', public: true },
  ],
  checks: ['task_creator'],
  subscriptions: ['system.app.installed'],
  search: ['task'],
});

const lines = (manifest: unknown, firstPartyApp: boolean, code?: ManifestCodeFacts, file = 'app.json') =>
  validateManifest(manifest, { firstParty: firstPartyApp, file, code }).map(formatManifestProblem);

/** Asserts the manifest (changed by `edit`) yields exactly `expected`. */
function rejects(title: string, base: () => Record<string, any>, firstPartyApp: boolean, edit: (manifest: Record<string, any>) => void, expected: string[], code?: ManifestCodeFacts) {
  test(title, (t) => {
    const manifest = base();
    edit(manifest);
    t.deepEqual(lines(manifest, firstPartyApp, code), expected);
  });
}

test('a valid first-party manifest has no problem, with or without its code', (t) => {
  t.deepEqual(lines(firstParty(), true), []);
  t.deepEqual(lines(firstParty(), true, tasksCode()), []);
});

test('a valid third-party manifest has no problem', (t) => {
  t.deepEqual(lines(extApp(), false), []);
  t.deepEqual(lines(extApp(), false, { routes: [{ method: 'POST', path: '/greetings' }], checks: [], subscriptions: ['ext.acme.hello.greeting.sent'], search: [] }), []);
});

test('a first-party app may list same-origin pages with or without a public folder (a page the folder lacks is its built front-end)', (t) => {
  t.deepEqual(lines({ ...firstParty(), same_origin_pages: ['join.html'] }, true), []);
  t.deepEqual(lines({ ...firstParty(), public: './public', same_origin_pages: ['call.html', 'join.html'] }, true), []);
});
rejects('a third-party app may list no same-origin page', extApp, false, (m) => { m.same_origin_pages = ['join.html']; }, ["app.json: same_origin_pages: is for first-party apps only: a third-party app's pages always run sandboxed, without the session"]);

test('an app may declare the meters it bills usage on (first- and third-party alike)', (t) => {
  t.deepEqual(lines({ ...extApp(), meters: [{ name: 'greetings', description: 'One greeting sent' }, { name: 'ai_tokens', description: 'One AI token' }] }, false), []);
});
rejects('a meter is declared once', extApp, false, (m) => { (m as Record<string, unknown>).meters = [{ name: 'steps', description: 'A step' }, { name: 'steps', description: 'Again' }]; }, ['app.json: meters[1].name: "steps" is declared twice (also meters[0])']);
rejects('a meter has a lower-case name and a description', extApp, false, (m) => { (m as Record<string, unknown>).meters = [{ name: 'Steps', description: '' }]; }, ['app.json: meters[0].name: must match pattern "^[a-z][a-z0-9_]{0,39}$"', 'app.json: meters[0].description: must NOT have fewer than 1 characters']);

test('problems name the file given', (t) => {
  const manifest = extApp();
  manifest.permissions[0].key = 'hello.greetings.create';
  t.deepEqual(lines(manifest, false, undefined, 'examples/ext-hello/app.json'), [
    'examples/ext-hello/app.json: permissions[0].key: "hello.greetings.create" must start with "ext.acme.hello." (third-party keys carry ext.{publisher}.{slug}.)',
    'examples/ext-hello/app.json: authorization[0].chain[0]: "ext.acme.hello.greetings.create" is not a permission this app declares',
  ]);
});

test('a document that is not an object is one problem', (t) => {
  t.deepEqual(lines([], true), ['app.json: must be a JSON object']);
  t.deepEqual(lines('tasks', true), ['app.json: must be a JSON object']);
});

// Shape (the JSON Schema).
rejects('required fields are named', firstParty, true, (m) => { delete m.name; delete m.permissions; }, ['app.json: name: is required', 'app.json: permissions: is required']);
rejects('unknown top-level fields are refused', firstParty, true, (m) => { m.permisions = []; }, ['app.json: permisions: is not a manifest field']);
rejects('unknown nested fields are refused', firstParty, true, (m) => { m.permissions[1].lable = 'x'; }, ['app.json: permissions[1].lable: is not allowed here']);
rejects('the slug pattern is enforced', firstParty, true, (m) => { m.slug = 'My-Tasks'; }, [
  'app.json: slug: must match pattern "^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$"',
  'app.json: permissions[0].key: "tasks.tasks.create" must start with "My-Tasks." (the app\'s slug)',
  'app.json: permissions[1].key: "tasks.tasks.read" must start with "My-Tasks." (the app\'s slug)',
  'app.json: permissions[2].key: "tasks.tasks.delete" must start with "My-Tasks." (the app\'s slug)',
]);
rejects('a first-party app cannot take a slug reserved for the platform', firstParty, true, (m) => {
  m.slug = 'account';
  m.permissions = [{ key: 'account.members.read', label: 'Read members', category: 'Members' }];
  m.authorization = [{ method: 'GET', path: '/members', chain: ['account.members.read'] }];
  m.events = [];
  m.search = [];
}, ['app.json: slug: "account" is reserved for the platform']);
test('a third-party app may use a reserved word as its slug: its namespace is ext.{publisher}.{slug}', (t) => {
  const manifest: Record<string, any> = extApp();
  manifest.slug = 'account';
  manifest.permissions = [{ key: 'ext.acme.account.greetings.create', label: 'Greet', category: 'Greetings' }];
  manifest.authorization = [{ method: 'POST', path: '/greetings', chain: ['ext.acme.account.greetings.create'] }];
  manifest.events = [];
  manifest.subscriptions = [];
  t.deepEqual(lines(manifest, false), []);
});
rejects('methods come from a closed list', firstParty, true, (m) => { m.authorization[0].method = 'get'; }, ['app.json: authorization[0].method: must be one of: GET, POST, PUT, PATCH, DELETE']);
rejects('the version is semantic', firstParty, true, (m) => { m.version = 'v1'; }, ['app.json: version: must match pattern "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$"']);
rejects('max_retries is bounded', extApp, false, (m) => { m.subscriptions[0].max_retries = 99; }, ['app.json: subscriptions[0].max_retries: must be <= 20']);

// First-party is the configuration's decision.
rejects('a third-party app must name its publisher', firstParty, false, () => {}, [
  'app.json: publisher: is required: only apps the runtime configuration loads as first-party may omit it; a third-party app is ext.{publisher}.{slug}',
  'app.json: events[0].action: "core.tasks.task.created": core.* events are emitted by first-party apps only; a third-party app emits in tasks.*',
  'app.json: events[1].action: "core.calls.call.reminder": core.* events are emitted by first-party apps only; a third-party app emits in tasks.*',
]);

// Permission keys.
rejects('first-party keys start with the slug', firstParty, true, (m) => { m.permissions[0].key = 'task.tasks.create'; m.authorization[0].chain = ['task.tasks.create']; }, ['app.json: permissions[0].key: "task.tasks.create" must start with "tasks." (the app\'s slug)']);
rejects('ext keys carry ext.{publisher}.{slug}.', extApp, false, (m) => { m.permissions[0].key = 'ext.other.hello.greetings.create'; m.authorization[0].chain = ['ext.other.hello.greetings.create']; }, [
  'app.json: permissions[0].key: "ext.other.hello.greetings.create" must start with "ext.acme.hello." (third-party keys carry ext.{publisher}.{slug}.)',
]);
rejects('a key has exactly a resource and an action', firstParty, true, (m) => { m.permissions[1].key = 'tasks.tasks.comments.read'; m.authorization[1].chain = ['tasks.tasks.comments.read']; m.search[0].permissions = ['tasks.tasks.comments.read']; }, ['app.json: permissions[1].key: "tasks.tasks.comments.read" must have the form tasks.{resource}.{action}']);
rejects('the resource is a plural noun', firstParty, true, (m) => { m.permissions[0].key = 'tasks.task.create'; m.authorization[0].chain = ['tasks.task.create']; }, ['app.json: permissions[0].key: "tasks.task.create": resource "task" must be a plural noun (for example "tasks")']);
rejects('a resource ending in ss is not plural', firstParty, true, (m) => { m.permissions[0].key = 'tasks.access.create'; m.authorization[0].chain = ['tasks.access.create']; }, ['app.json: permissions[0].key: "tasks.access.create": resource "access" must be a plural noun (for example "accesss")']);
rejects('the action is a verb from the closed list', firstParty, true, (m) => { m.permissions[0].key = 'tasks.tasks.creation'; m.authorization[0].chain = ['tasks.tasks.creation']; }, [
  'app.json: permissions[0].key: "tasks.tasks.creation": action "creation" is not one of the permission verbs (approve, archive, assign, book, cancel, comment, configure, create, delete, download, edit, export, hire, import, invite, join, list, manage, move, pay, publish, read, receive, record, reject, remove, restore, review, run, schedule, send, share, sign, start, stop, submit, suggest, transfer, update, upload, use, view, void)',
]);
rejects('segments are lowercase words', firstParty, true, (m) => { m.permissions[0].key = 'tasks.Tasks.create'; m.authorization[0].chain = ['tasks.Tasks.create']; }, ['app.json: permissions[0].key: "tasks.Tasks.create": resource "Tasks" must be lowercase words joined by _']);
rejects('a key is declared once', firstParty, true, (m) => { m.permissions.push({ key: 'tasks.tasks.read', label: 'again', category: 'Tasks' }); }, ['app.json: permissions[3].key: "tasks.tasks.read" is declared twice (also permissions[1])']);

// The authorization table.
rejects('a route without a chain must say public: true', firstParty, true, (m) => { delete m.authorization[3].public; }, ['app.json: authorization[3]: GET /tasks/health has no chain of checks; give it one, or mark the route "public": true']);
rejects('public: false is not a chain', firstParty, true, (m) => { m.authorization[3].public = false; }, ['app.json: authorization[3]: GET /tasks/health has no chain of checks; give it one, or mark the route "public": true']);
rejects('a public route has no chain', firstParty, true, (m) => { m.authorization[3].chain = ['tasks.tasks.read']; }, ['app.json: authorization[3]: GET /tasks/health is public and has a chain; a public route has no chain']);
rejects('an empty chain is refused', firstParty, true, (m) => { m.authorization[0].chain = []; }, ['app.json: authorization[0].chain: must NOT have fewer than 1 items']);
rejects('chains name declared keys only', firstParty, true, (m) => { m.authorization[0].chain = ['tasks.tasks.create', 'chat.messages.send']; }, ['app.json: authorization[0].chain[1]: "chat.messages.send" is not a permission this app declares']);
rejects('a chain step has one of three shapes', firstParty, true, (m) => { m.authorization[0].chain = [{ key: 'tasks.tasks.create' }, 7]; }, [
  'app.json: authorization[0].chain[0]: must be a permission key, {"check": name} or {"any_of": [...]}',
  'app.json: authorization[0].chain[1]: must be a permission key, {"check": name} or {"any_of": [...]}',
]);
rejects('any_of needs two alternatives and no nesting', firstParty, true, (m) => { m.authorization[0].chain = [{ any_of: ['tasks.tasks.create'] }, { any_of: ['tasks.tasks.read', { any_of: ['tasks.tasks.create', 'tasks.tasks.read'] }] }]; }, [
  'app.json: authorization[0].chain[0].any_of: must list at least two alternatives',
  'app.json: authorization[0].chain[1].any_of[1]: must be a permission key or {"check": name}',
]);
rejects('check names are lowercase words', firstParty, true, (m) => { m.authorization[2].chain = [{ check: 'TaskCreator', message: '' }]; }, [
  'app.json: authorization[2].chain[0].check: must be the name of a check: lowercase words joined by _',
  'app.json: authorization[2].chain[0].message: must be a non-empty string',
]);
rejects('a named check must exist in the code', firstParty, true, (m) => { m.authorization[2].chain = [{ any_of: [{ check: 'is_creator' }, 'tasks.tasks.delete'] }]; }, [
  'app.json: authorization[2].chain[0].any_of[0].check: "is_creator" is not a check of the app\'s code (checks: task_creator)',
], tasksCode());
rejects('a route has one entry', firstParty, true, (m) => { m.authorization.push({ method: 'GET', path: '/tasks/{task_id}', chain: ['tasks.tasks.read'] }); }, ['app.json: authorization[4]: GET /tasks/{task_id} has two entries (also authorization[1])']);
rejects('route patterns are hapi paths', firstParty, true, (m) => { m.authorization[1].path = '/tasks/{id'; }, ['app.json: authorization[1].path: "/tasks/{id" is not a valid route pattern (segment "{id")']);
rejects('every route of the code is in the table', firstParty, true, (m) => { m.authorization.splice(1, 1); }, [
  'app.json: authorization: has no entry for GET /tasks/{task_id}, a route of the app\'s code; add one with a chain, or "public": true',
], tasksCode());
rejects('every table entry matches a route of the code', firstParty, true, (m) => { m.authorization.push({ method: 'PUT', path: '/tasks/{id}', chain: ['tasks.tasks.create'] }); }, ['app.json: authorization[4]: PUT /tasks/{} matches no route of the app\'s code'], tasksCode());
rejects('a public entry needs a public code route', firstParty, true, (m) => { m.authorization[1] = { method: 'GET', path: '/tasks/{id}', public: true }; }, ['app.json: authorization[1]: GET /tasks/{} is public here but its code route is not; declare it with definePublicRoute'], tasksCode());
rejects('a public code route needs a public entry', firstParty, true, (m) => { m.authorization[3] = { method: 'GET', path: '/tasks/health', chain: ['tasks.tasks.read'] }; }, ['app.json: authorization[3]: GET /tasks/health is declared with definePublicRoute in the code; mark it "public": true here'], tasksCode());
rejects('a remote app serves no routes', extApp, false, (m) => { m.address = 'https://hello.acme.example'; }, ['app.json: authorization: must be empty: a remote app (address) serves no routes through the platform']);
rejects('an app with code has no address', extApp, false, (m) => { m.address = 'https://hello.acme.example'; m.authorization = []; }, ['app.json: address: is for remote apps only; an app whose code the runtime loads is served in-process'], { routes: [], checks: [], subscriptions: ['ext.acme.hello.greeting.sent'], search: [] });

// Events emitted.
rejects('event names have four parts', firstParty, true, (m) => { m.events[0].action = 'core.tasks.created'; }, ['app.json: events[0].action: "core.tasks.created" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}']);
rejects('event actions are past tense', firstParty, true, (m) => { m.events[0].action = 'core.tasks.task.create'; }, [
  'app.json: events[0].action: "core.tasks.task.create": action "create" must be a past-tense verb (ending in -ed, or one of: begun, bought, brought, built, caught, chosen, cut, dealt, done, drawn, driven, fed, felt, forgotten, found, frozen, given, gone, got, held, hidden, hit, kept, known, laid, led, left, lent, lost, made, met, paid, put, quit, read, reset, rewritten, run, said, seen, sent, set, shown, shut, sold, spent, split, spoken, stolen, struck, taken, taught, told, thought, torn, undone, understood, withdrawn, won, written)',
]);
test('irregular past tenses and compound actions are accepted', (t) => {
  const manifest: Record<string, any> = extApp();
  manifest.events = ['ext.acme.hello.greeting.sent', 'ext.acme.hello.invoice.paid', 'ext.acme.hello.site.built', 'ext.acme.hello.greeting.bulk_deleted'].map((action) => ({ action, description: 'x', schema: { type: 'object' } }));
  t.deepEqual(lines(manifest, false), []);
});
rejects('core.* is for first-party apps only', extApp, false, (m) => { m.events[0].action = 'core.hello.greeting.sent'; }, ['app.json: events[0].action: "core.hello.greeting.sent": core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*']);
rejects('an ext app emits only in its own namespace', extApp, false, (m) => { m.events[0].action = 'ext.acme.other.greeting.sent'; }, ['app.json: events[0].action: "ext.acme.other.greeting.sent": an app emits only in its own namespace ext.acme.hello.*']);
rejects('a first-party app does not emit ext.*', firstParty, true, (m) => { m.events[0].action = 'ext.acme.hello.greeting.sent'; }, ['app.json: events[0].action: "ext.acme.hello.greeting.sent": ext.* events belong to third-party apps; a first-party app emits core.*']);
rejects('core.account.* belongs to the platform runtime', firstParty, true, (m) => { m.events[0].action = 'core.account.member.invited'; }, ['app.json: events[0].action: "core.account.member.invited": core.account.* events are emitted by the platform runtime only']);
rejects('no app emits system.*', firstParty, true, (m) => { m.events[0].action = 'system.app.installed'; }, ['app.json: events[0].action: "system.app.installed": system.* events are emitted by the platform runtime only; apps may subscribe to them but never emit them']);
rejects('an event is declared once', extApp, false, (m) => { m.events.push({ ...m.events[0] }); }, ['app.json: events[1].action: "ext.acme.hello.greeting.sent" is declared twice (also events[0])']);
rejects('event schemas must compile', extApp, false, (m) => { m.events[0].schema = { type: 'object', properties: { greeting_id: { type: 'text' } } }; }, [
  'app.json: events[0].schema: does not compile: schema is invalid: data/properties/greeting_id/type must be equal to one of the allowed values, data/properties/greeting_id/type must be array, data/properties/greeting_id/type must match a schema in anyOf',
]);
rejects('unknown schema keywords do not compile', extApp, false, (m) => { m.events[0].schema = { type: 'object', requird: ['x'] }; }, ['app.json: events[0].schema: does not compile: strict mode: unknown keyword: "requird"']);
rejects('a payload schema is an object schema', extApp, false, (m) => { m.events[0].schema = { type: 'string' }; }, ['app.json: events[0].schema.type: must be "object": a payload is an object']);
rejects('redacted fields are payload properties', firstParty, true, (m) => { m.events[0].redact = ['title', 'email']; }, ['app.json: events[0].redact[1]: "email" is not a property of the payload schema']);

// Subscriptions.
rejects('subscribed actions are well-formed', extApp, false, (m) => { m.subscriptions[0].action = 'tasks.created'; }, [
  'app.json: subscriptions[0].action: "tasks.created" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}',
], undefined);
rejects('an action is subscribed once', firstParty, true, (m) => { m.subscriptions.push({ action: 'system.app.installed', handler: '/events/again' }); }, ['app.json: subscriptions[1].action: "system.app.installed" is subscribed twice (also subscriptions[0])']);
rejects('handler paths are unique', firstParty, true, (m) => { m.subscriptions.push({ action: 'system.app.uninstalled', handler: '/events/system-app-installed' }); }, ['app.json: subscriptions[1].handler: "/events/system-app-installed" is used twice (also subscriptions[0])']);
rejects('every subscription has a handler in the code', firstParty, true, (m) => { m.subscriptions.push({ action: 'system.app.uninstalled', handler: '/events/system-app-uninstalled' }); }, [
  'app.json: subscriptions[1]: "system.app.uninstalled" has no handler in the app\'s code (defineApp subscriptions)',
], tasksCode());
rejects('every handler in the code is subscribed', firstParty, true, (m) => { m.subscriptions = []; }, ['app.json: subscriptions: has no entry for "system.app.installed", which the app\'s code handles'], tasksCode());

// Search.
rejects('searchable types name declared keys', firstParty, true, (m) => { m.search[0].permissions = ['tasks.tasks.read', 'tasks.boards.read']; }, ['app.json: search[0].permissions[1]: "tasks.boards.read" is not a permission this app declares']);
rejects('searchable types are unique', firstParty, true, (m) => { m.search.push({ ...m.search[0] }); }, ['app.json: search[1].type: "task" is declared twice (also search[0])']);
rejects('every type the code indexes is declared', firstParty, true, (m) => { m.search = []; }, ['app.json: search: has no entry for type "task", which the app\'s code indexes'], tasksCode());

// Settings.
rejects('the settings schema must compile', firstParty, true, (m) => { m.settings.schema = { type: 'object', properties: { default_lane: { minLength: 'one' } } }; }, [
  'app.json: settings.schema: does not compile: schema is invalid: data/properties/default_lane/minLength must be integer',
]);
rejects('the settings schema describes an object', firstParty, true, (m) => { m.settings = { schema: { type: 'array' }, defaults: {} }; }, ['app.json: settings.schema.type: must be "object": settings are one JSON object', 'app.json: settings.defaults: must be array (the defaults must satisfy settings.schema)']);
rejects('settings defaults satisfy their schema', firstParty, true, (m) => { m.settings.defaults = { default_lane: 3 }; }, ['app.json: settings.defaults.default_lane: must be string (the defaults must satisfy settings.schema)']);
rejects('missing defaults are named', firstParty, true, (m) => { m.settings.defaults = {}; }, ['app.json: settings.defaults.default_lane: is required (the defaults must satisfy settings.schema)']);

test('every problem is reported, not just the first', (t) => {
  const manifest: Record<string, any> = extApp();
  manifest.permissions.push({ key: 'ext.acme.hello.greeting.make', label: 'x', category: 'x' });
  manifest.authorization.push({ method: 'GET', path: '/greetings' });
  manifest.events[0].action = 'system.hello.greeting.sent';
  manifest.unknown = true;
  const found = lines(manifest, false);
  t.is(found.length, 4);
  t.deepEqual(found.map((line) => line.split(': ')[1]), ['unknown', 'permissions[1].key', 'authorization[1]', 'events[0].action']);
});

rejects('only the platform\'s system events can be subscribed to', firstParty, true, (m) => { m.subscriptions[0].action = 'system.app.removed'; }, [
  'app.json: subscriptions[0].action: "system.app.removed" is not an event the platform emits (system.app.installed, system.app.uninstalled, system.workspace.created, system.workspace.member.added, system.workspace.member.removed, system.security.role.created, system.security.permission.denied)',
]);
