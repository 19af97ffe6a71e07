import got from 'got';
import { WorkspaceClient, withOperationGroups, type Client, type ClientOptions } from './client.js';
import { jsonText, type Transport } from './transport.js';

export * from './client.js';
export { fetchTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** Node's transport: `got`, no retries of its own (the client retries a 429 itself). */
export const gotTransport: Transport = async (request) => {
  const options = {
    method: request.method as 'GET',
    headers: request.headers,
    body: request.body,
    timeout: { request: request.timeoutMs },
    throwHttpErrors: false,
    retry: { limit: 0 },
  };
  if (!request.binary) {
    const response = await got(request.url, options);
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }
  const response = await got(request.url, { ...options, responseType: 'buffer' });
  const bytes = new Uint8Array(response.body);
  return { status: response.statusCode, headers: response.headers, body: jsonText(response.headers['content-type'], bytes), bytes };
};

/**
 * A client for the platform: `createClient({ baseUrl, workspace, apiKey })`, then
 * `client.tasks.postTasks({ body: { title } })`, `client.call('getMembers')`,
 * `client.paginate('getTasks')`. In Node requests go through `got`; give `transport` to change that.
 */
export function createClient(options: ClientOptions): Client {
  return withOperationGroups(new WorkspaceClient({ ...options, transport: options.transport ?? gotTransport }));
}
