import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

// Starting real processes (servers, brokers) and a round-robin proxy in front of the servers: shared
// by the multi-process test (test/scale-out-processes.test.ts) and the cluster bench
// (bench/cluster.ts), so both start and route to processes the same way.

/** A child process started with `spawnChild`. */
export interface Child {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
  /** The match of the `ready` pattern in its output. */
  match: RegExpExecArray;
}

/** Every child still running, so a test's or a bench's clean-up can kill what is left. */
export const children = new Set<ChildProcess>();

/**
 * Runs `file` under Node with tsx, with `env` added to this process's environment, and resolves
 * once its output (stdout + stderr) matches `ready`; rejects if it exits first or is not ready in 60 s.
 */
export function spawnChild(file: string, env: Record<string, string>, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, [TS_HOOKS, file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} not ready after 60 s: ${output}`)), 60_000);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, exited, output: () => output, match });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}: ${output}`));
    });
  });
}

/** The round-robin proxy of `startProxy`. */
export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A round-robin HTTP proxy on loopback: each request goes to the next of `backends` (read at each
 * request, so a caller may replace a restarted backend's URL in place); a backend that refuses the
 * connection (a killed server) is passed over for the next one, since the request never reached
 * it. Any other failure answers 502 (the client cannot know whether it was applied).
 */
export function startProxy(backends: string[]): Promise<Proxy> {
  let next = 0;
  // Idle upstream connections are closed after 2 s, before the servers' own keep-alive timeout
  // (5 s) would close them under a request being sent (which would answer that request 502).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 2000 });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      // Each request walks the backends from its own starting point, so its retries try every
      // other backend once, whatever other requests take meanwhile.
      const first = next++;
      const attempt = (tries: number) => {
        const target = new URL(backends[(first + tries - 1) % backends.length]);
        const upstream = http.request(
          { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && tries < backends.length) return attempt(tries + 1);
          if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: `upstream ${error.code ?? error.message}` }));
        });
        upstream.end(body);
      };
      attempt(1);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
