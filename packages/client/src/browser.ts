import { WorkspaceClient, withOperationGroups, type Client, type ClientOptions } from './client.js';
import { fetchTransport } from './transport.js';

export * from './client.js';
export { fetchTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * A client for the platform in a browser: requests go through `fetch` without cookies, so give
 * it a bearer: `token` (an app's bridge token, read before every request) or `apiKey`.
 * `createClient({ baseUrl: location.origin, token: () => bridge.token })`.
 */
export function createClient(options: ClientOptions): Client {
  return withOperationGroups(new WorkspaceClient({ ...options, transport: options.transport ?? fetchTransport }));
}
