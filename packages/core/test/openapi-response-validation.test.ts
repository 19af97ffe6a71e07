/**
 * The tests' check of every answer against the OpenAPI document (installResponseValidation): a
 * hapi server with three routes and a document of its own, so each kind of mismatch is seen
 * failing, and a schema reached through components (one referring to another) is checked whole.
 */
import Hapi from '@hapi/hapi';
import test from 'ava';
import { installResponseValidation, type OpenApiDocument } from '../src/openapi/index.js';

const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

function documentOf(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {},
    tags: [],
    paths: {
      '/things/{id}': { get: { operationId: 'getThing', responses: { '200': json('Thing'), '404': json('Error') } } as never },
      '/lists': { get: { operationId: 'listThings', responses: { '200': json('ThingList') } } as never },
    },
    components: {
      schemas: {
        Envelope: { type: 'object', required: ['data'] },
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        Thing: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
        ThingList: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
      },
    },
  };
}

async function serverWith(answers: Record<string, { status: number; body: unknown }>) {
  const server = Hapi.server();
  server.route({ method: 'GET', path: '/things/{id}', handler: (request, h) => {
    const answer = answers[request.params.id as string];
    return h.response(answer.body as object).code(answer.status);
  } });
  server.route({ method: 'GET', path: '/lists', handler: () => answers.list.body as object });
  const validation = installResponseValidation(server, documentOf);
  await server.initialize();
  return { server, validation };
}

test('answers the document describes pass; a body off its schema, an undeclared status and a bad item through a $ref chain are each named', async (t) => {
  const { server, validation } = await serverWith({
    good: { status: 200, body: { id: 'a', name: 'A' } },
    missing: { status: 404, body: { error: 'thing not found' } },
    wrong: { status: 200, body: { id: 5, name: 'A' } },
    teapot: { status: 418, body: { error: 'no' } },
    list: { status: 200, body: { data: [{ id: 'a', name: 'A' }, { id: 'b' }] } },
  });
  for (const id of ['good', 'missing']) await server.inject(`/things/${id}`);
  t.notThrows(() => validation.assertClean());
  await server.inject('/things/wrong');
  await server.inject('/things/teapot');
  await server.inject('/lists');
  t.deepEqual(
    validation.mismatches.map(({ request, operation, status, problem }) => [request, operation, status, problem.replace(/ \(\{.*$/s, '')]),
    [
      ['GET /things/wrong', 'GET /things/{id}', 200, 'body breaks the declared schema: /id must be string'],
      ['GET /things/teapot', 'GET /things/{id}', 418, 'status 418 is not declared (declared: 200, 404)'],
      ['GET /lists', 'GET /lists', 200, "body breaks the declared schema: /data/1 must have required property 'name'"],
    ],
  );
  const error = t.throws(() => validation.assertClean());
  t.true(error!.message.startsWith('3 answers did not match the OpenAPI document:\n  GET /things/wrong (GET /things/{id}) answered 200'));
});

test('validators are shared by schema: a second server on a fresh document of the same text checks the same way', async (t) => {
  for (let round = 0; round < 2; round += 1) {
    const { server, validation } = await serverWith({ wrong: { status: 200, body: { id: 'a' } }, list: { status: 200, body: { data: [] } } });
    await server.inject('/things/wrong');
    await server.inject('/lists');
    t.deepEqual(
      validation.mismatches.map((mismatch) => mismatch.problem.replace(/ \(\{.*$/s, '')),
      ["body breaks the declared schema: (root) must have required property 'name'"],
    );
  }
});
