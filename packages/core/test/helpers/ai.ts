import { fileURLToPath } from 'node:url';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RuntimeOptions } from '../../src/index.js';
import { NOTES_DIR, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './apps.js';

/** The `desk` fixture: tickets (desk.tickets.read) and salary notes (desk.salaries.read), both searchable. */
export const DESK_DIR = fileURLToPath(new URL('../fixtures/apps/desk', import.meta.url));

/** One chat-completions request as the local model server received it. */
export interface ModelRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: Array<{ role: string; content: string }>; [key: string]: unknown };
}

/**
 * A local OpenAI-compatible server (`POST /v1/chat/completions`): it records every request and
 * answers `reply(request)`, or the status `failWith` when set.
 */
export class LocalModelServer {
  readonly requests: ModelRequest[] = [];
  failWith: number | null = null;
  private server!: http.Server;
  baseUrl = '';

  static async start(reply: (request: ModelRequest) => string): Promise<LocalModelServer> {
    const model = new LocalModelServer();
    model.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: ModelRequest = { path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
        model.requests.push(received);
        if (model.failWith !== null) return void response.writeHead(model.failWith, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        const answer = { id: `chatcmpl-${model.requests.length}`, object: 'chat.completion', model: received.body.model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply(received) } }] };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
    model.baseUrl = `http://127.0.0.1:${(model.server.address() as AddressInfo).port}/v1`;
    return model;
  }

  /** Everything ever sent to the model, as one string. */
  everythingSent(): string {
    return JSON.stringify(this.requests);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A workspace with desk (and notes) installed for one role, a member holding only `desk.tickets.read`, and indexed records. */
export interface DeskWorld {
  ws: TestWorkspace;
  /** Holds desk.tickets.read only. */
  agent: TestCaller;
  /** Holds no role: cannot open desk. */
  outsider: TestCaller;
}

export async function startDeskRuntime(options: RuntimeOptions = {}): Promise<AppsTestRuntime> {
  return startAppsRuntime({ apps: [{ dir: NOTES_DIR, firstParty: true }, { dir: DESK_DIR, firstParty: true }], ...options });
}

export async function deskWorld(env: AppsTestRuntime, subdomain: string): Promise<DeskWorld> {
  const ws = await TestWorkspace.create(env, subdomain);
  const role = await ws.role('Agents', { desk: ['desk.tickets.read'] });
  await ws.install('desk', { access_policy: 'roles', allowed_roles: [role] });
  await ws.install('notes', { access_policy: 'everyone' });
  const agent = await ws.member('member', [role], 'Agent');
  const outsider = await ws.member('member', [], 'Outsider');
  const index = env.runtime.search;
  const put = (type: string, id: string, title: string, body: string) =>
    index.upsert(ws.id, 'desk', { type, id, badge: `${type === 'ticket' ? 'T' : 'S'}-${id}`, title, subtitle: body.slice(0, 40), url: `/desk/${type}s/${id}`, names: [title], details: [body] });
  await put('ticket', '1', 'Launch checklist', 'Print the launch posters and book the hall');
  await put('ticket', '2', 'Printer broken', 'The printer on floor two jams');
  await put('ticket', '3', 'Launch party catering', 'Order food for the launch party');
  await put('salary', '1', 'Launch bonus for Alice', 'Alice earns a launch bonus of 5000');
  await index.upsert(ws.id, 'notes', { type: 'note', id: 'n1', title: 'Launch notes', url: '/notes/n1', names: ['Launch notes'] });
  return { ws, agent, outsider };
}
