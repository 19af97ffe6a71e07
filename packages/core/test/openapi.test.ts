import test from 'ava';
import JoiBase from 'joi';
import Hapi from '@hapi/hapi';
import { buildOpenApiDocument, joiToJsonSchema, type OpenApiDocument } from '../src/index.js';
import { apiHeaders } from './helpers/runtime.js';
import { startAppsRuntime, type AppsTestRuntime } from './helpers/apps.js';

let env: AppsTestRuntime;
let document: OpenApiDocument;

test.before(async () => {
  env = await startAppsRuntime();
  document = env.runtime.openApiDocument();
});
test.after.always(async () => {
  await env?.close();
});

test('GET /openapi.json on the base domain answers the document, publicly, with no version header', async (t) => {
  const answer = await env.runtime.server.inject({ url: '/openapi.json', headers: { host: 'localhost' } });
  t.is(answer.statusCode, 200);
  const served = JSON.parse(answer.payload);
  t.is(served.openapi, '3.1.0');
  t.is(served.info.version, '1.0.0');
  t.deepEqual(served, JSON.parse(JSON.stringify(document)));
});

test('/openapi.json is not served on a workspace subdomain', async (t) => {
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'reader', name: 'Reader', ownerEmail: 'owner@reader.test', ownerPassword: 'owner-password-1', ownerName: 'Owner' });
  const answer = await env.runtime.server.inject({ url: '/openapi.json', headers: apiHeaders('reader') });
  t.is(answer.statusCode, 404);
  t.deepEqual(JSON.parse(answer.payload), { error: '/openapi.json is served on localhost, not on a workspace subdomain' });
});

test("every route of the server's table is an operation of the document, and nothing else is", (t) => {
  const routes = env.runtime.server.table().map((route) => `${route.method.toUpperCase()} ${route.path.replace(/\{(\w+)[*?]?\d*\}/g, '{$1}')}`);
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
  t.deepEqual([...operations].sort(), [...routes].sort());
  const ids = operations.map((operation) => {
    const [method, path] = operation.split(' ');
    return document.paths[path][method.toLowerCase()].operationId;
  });
  t.is(new Set(ids).size, ids.length, 'operation ids are unique');
});

test('request bodies and parameters carry every bound of the joi schemas', (t) => {
  const createKey = document.paths['/api-keys'].post;
  const body = (createKey.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown> } }> }).content['application/json'].schema;
  t.like(body.properties.name, { type: 'string', minLength: 1, maxLength: 100 });
  const putNote = document.paths['/notes/{id}'].put;
  t.deepEqual(putNote.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }, { $ref: '#/components/parameters/ApiVersion' }]);
  const noteBody = (putNote.requestBody as { content: Record<string, { schema: unknown; example: unknown }> }).content['application/json'];
  t.deepEqual(noteBody.schema, { type: 'object', properties: { title: { type: 'string', minLength: 1, maxLength: 200 } }, required: ['title'] });
  t.deepEqual(noteBody.example, { title: 'example' });
  const exportQuery = document.paths['/notes/smuggle'].get.parameters;
  t.deepEqual(exportQuery?.[0], { name: 'target', in: 'query', required: true, schema: { type: 'string', enum: ['vault', 'platform'] } });
});

test('each operation names the permissions it needs, its credentials and its error answers', (t) => {
  const members = document.paths['/members'].get;
  t.deepEqual(members['x-permissions'], ['account.members.read']);
  t.is(members['x-access'], 'permission');
  t.deepEqual(members.security, [{ apiKey: [] }, { sessionCookie: [] }]);
  const deleteNote = document.paths['/notes/{id}'].delete;
  t.deepEqual(deleteNote['x-permissions'], [{ any_of: [{ check: 'note_author' }, 'notes.notes.delete'], message: 'Cannot delete this note' }]);
  t.deepEqual(deleteNote.tags, ['notes']);
  t.deepEqual(document.paths['/notes-status'].get.security, []);
  t.deepEqual(document.paths['/sessions'].delete.security, [{ sessionCookie: [] }]);
  t.is(document.paths['/api-keys'].get['x-access'], 'full-access');
  t.deepEqual(Object.keys(document.paths['/notes'].post.responses), ['200', '400', '401', '403', '404', '408', '409', '413', '415', '429', '500', '503']);
  t.deepEqual(Object.keys(document.paths['/health'].get.responses), ['200', '400', '401', '403', '404', '408', '429', '500', '503']);
});

test('the document declares the envelopes, the error body, both credentials, the version header and the workspace server', (t) => {
  const components = document.components;
  t.deepEqual(Object.keys(components.securitySchemes), ['apiKey', 'sessionCookie']);
  t.like(components.securitySchemes.sessionCookie, { type: 'apiKey', in: 'cookie', name: 'wpk_session' });
  t.like(components.securitySchemes.apiKey, { type: 'http', scheme: 'bearer' });
  t.like(components.parameters.ApiVersion, { name: 'X-Api-Version', in: 'header', required: true, 'x-released-versions': ['2026-11-01'] });
  for (const name of ['Error', 'SingleEnvelope', 'CollectionEnvelope', 'Envelope']) t.truthy(components.schemas[name], name);
  t.like((document.servers as Array<{ url: string }>)[0], { url: 'https://{workspace}.{base}' });
});

test('--app keeps one app: an app, or account for the platform', (t) => {
  const notes = env.runtime.openApiDocument({ app: 'notes' });
  t.true(Object.values(notes.paths).every((item) => Object.values(item).every((operation) => operation.tags[0] === 'notes')));
  t.deepEqual(notes.tags.map((tag) => tag.name), ['notes']);
  t.true('/members' in env.runtime.openApiDocument({ app: 'account' }).paths);
  t.throws(() => env.runtime.openApiDocument({ app: 'nope' }), { message: 'No operations of nope: known are account, web, system, notes, ext.acme.vault' });
});

test('a type added by a joi extension is described as the type it builds on, with its bounds', (t) => {
  const Joi = JoiBase.extend({ type: 'id', base: JoiBase.string().min(1).max(200) }, { type: 'calendarDate', base: JoiBase.string().custom((value) => value) });
  const schema = joiToJsonSchema(JoiBase.object({ id: Joi.id().required(), on: Joi.calendarDate().allow(null), ids: JoiBase.array().items(Joi.id()).max(5) }));
  t.deepEqual(schema, {
    type: 'object',
    properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, on: { type: ['string', 'null'] }, ids: { type: 'array', maxItems: 5, items: { type: 'string', minLength: 1, maxLength: 200 } } },
    required: ['id'],
  });
});

test("joi's greater() and less() give the exclusive bound alone, not beside an inclusive one", (t) => {
  t.deepEqual(joiToJsonSchema(JoiBase.number().greater(0).max(1e6)), { type: 'number', exclusiveMinimum: 0, maximum: 1e6 });
  t.deepEqual(joiToJsonSchema(JoiBase.number().min(1).less(10)), { type: 'number', minimum: 1, exclusiveMaximum: 10 });
});

test('a route that declares its record answers the envelope with that record, named as a shared schema', (t) => {
  const list = document.paths['/members'].get.responses['200'] as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
  const schema = list.content['application/json'].schema;
  t.deepEqual(schema.required, ['data', 'pagination', 'links']);
  t.deepEqual(schema.properties.data, { type: 'array', items: { $ref: '#/components/schemas/Member' } });
  const member = document.components.schemas.Member as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
  t.true(member.required.includes('platform_role'));
  t.false(member.additionalProperties);
  t.deepEqual(member.properties.platform_role, { type: 'string', enum: ['owner', 'admin', 'member'] });
  const created = document.paths['/api-keys'].post.responses['200'] as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  t.deepEqual(created.content['application/json'].schema.properties.data, { $ref: '#/components/schemas/ApiKeyWithSecret' });
  // Core's other records: the billing, app and notification routes among them.
  const invoices = document.paths['/invoices'].get.responses['200'] as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  t.deepEqual(invoices.content['application/json'].schema.properties.data, { type: 'array', items: { $ref: '#/components/schemas/Invoice' } });
  const status = document.paths['/applications/{slug}/status'].get.responses['200'] as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  t.deepEqual(status.content['application/json'].schema.properties.data, { $ref: '#/components/schemas/AppStatus' });
  t.deepEqual((document.components.schemas.Invoice as { properties: { status: unknown } }).properties.status, { type: 'string', enum: ['open', 'past_due', 'paid', 'void'] });
  // The activity export answers the CSV file itself, not an envelope.
  const exported = document.paths['/admin/activity-exports'].get.responses['200'] as { content: Record<string, unknown> };
  t.deepEqual(Object.keys(exported.content), ['text/csv']);
  // Every platform API operation declares its record: none is left with the generic envelope.
  const generic = Object.entries(document.paths).flatMap(([path, operations]) => Object.entries(operations).filter(([, operation]) => JSON.stringify(operation.responses['200']) === JSON.stringify({ $ref: '#/components/responses/Ok' })).map(([method]) => `${method.toUpperCase()} ${path}`));
  t.deepEqual(generic, []);
});

test("a file answered in several formats (Papers' export) declares each format's own media type", (t) => {
  const server = Hapi.server();
  const answers = { file: ['text/markdown; charset=utf-8', 'text/html; charset=utf-8', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/pdf'] };
  server.route({ method: 'GET', path: '/papers/{paper_id}/export', options: { app: { answers } as never, handler: () => null } });
  const built = buildOpenApiDocument({ routes: server.table(), apps: [], baseDomain: 'localhost' });
  const ok = built.paths['/papers/{paper_id}/export'].get.responses['200'] as { description: string; content: Record<string, unknown> };
  t.deepEqual(Object.keys(ok.content), ['text/markdown', 'text/html', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/pdf']);
  t.is(ok.description, 'Success: the text/markdown or text/html or application/vnd.openxmlformats-officedocument.wordprocessingml.document or application/pdf document itself (not an envelope).');
});

test('a route answering one of several envelopes declares each, with the keys a collection carries beside its data', (t) => {
  const server = Hapi.server();
  const ROW = JoiBase.object({ code: JoiBase.string().required() }).id('ReportRow');
  const TOTALS = JoiBase.object({ total: JoiBase.string().required() });
  const EXPORT = JoiBase.object({ csv: JoiBase.string().required() }).id('ReportExport');
  const answers = { anyOf: [{ collection: ROW, alongside: { totals: TOTALS } }, { single: EXPORT }] };
  server.route({ method: 'GET', path: '/report', options: { app: { answers } as never, handler: () => null } });
  const built = buildOpenApiDocument({ routes: server.table(), apps: [], baseDomain: 'localhost' });
  const ok = built.paths['/report'].get.responses['200'] as { content: Record<string, { schema: { anyOf: Array<{ required: string[]; properties: Record<string, unknown> }> } }> };
  const [rows, file] = ok.content['application/json'].schema.anyOf;
  t.deepEqual(rows.required, ['data', 'pagination', 'links', 'totals']);
  t.deepEqual(rows.properties.data, { type: 'array', items: { $ref: '#/components/schemas/ReportRow' } });
  t.deepEqual(rows.properties.totals, { type: 'object', properties: { total: { type: 'string' } }, required: ['total'], additionalProperties: false });
  t.deepEqual(file.required, ['data', 'links']);
  t.deepEqual(file.properties.data, { $ref: '#/components/schemas/ReportExport' });
});
