import http from 'node:http';

/** A real HTTP request (node:http lets us set Host, which fetch does not). */
export function httpRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null, headers: response.headers }));
    });
    request.on('error', reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}
