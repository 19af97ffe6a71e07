import got from 'got';
import { WorkspaceClient, withOperationGroups, type Client, type ClientOptions } from './client.js';
import type { Transport } from './transport.js';

export * from './client.js';
export { fetchTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** Node's transport: `got`, no retries of its own (the client retries a 429 itself). */
export const gotTransport: Transport = async (request) => {
  const response = await got(request.url, {
    method: request.method as 'GET',
    headers: request.headers,
    body: request.body,
    timeout: { request: request.timeoutMs },
    throwHttpErrors: false,
    retry: { limit: 0 },
  });
  return { status: response.statusCode, headers: response.headers, body: response.body };
};

/**
 * A client for the platform: `createClient({ baseUrl, workspace, apiKey })`, then
 * `client.tasks.postTasks({ body: { title } })`, `client.call('getMembers')`,
 * `client.paginate('getTasks')`. In Node requests go through `got`; give `transport` to change that.
 */
export function createClient(options: ClientOptions): Client {
  return withOperationGroups(new WorkspaceClient({ ...options, transport: options.transport ?? gotTransport }));
}
