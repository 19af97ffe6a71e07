import { spawn } from 'node:child_process';

/** A second server process (`wpk start`) on a world's database. */
export interface ServerProcess {
  /** Its base URL (`http://127.0.0.1:{port}`), as the process printed it. */
  url: string;
  /** Stops it (SIGTERM). */
  stop(): void;
}

/**
 * Starts `wpk start` of the app in `appDir` as another process on the database at `databaseUrl`
 * (the world's: `world.platform.runtime.db.url`), on a free port, without its broker or
 * migrations, and answers once it says it listens (60 s at most, with its output in the error).
 * Two processes on one PostgreSQL database prove what crosses processes (live fan-out through
 * LISTEN/NOTIFY). `cli` is the path of the CLI's entry (`cli/src/bin.ts` in the repository).
 */
export function startServerProcess(options: { cli: string; appDir: string; databaseUrl: string }): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import=tsx', options.cli, 'start', '--port', '0', '--app', '.', '--no-migrate'], {
    cwd: options.appDir,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, WPK_BROKER: 'off', WPK_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => void child.kill('SIGTERM');
  return new Promise<ServerProcess>((resolve, reject) => {
    let output = '';
    const fail = (error: Error) => {
      stop();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`the second server was not ready in 60 s: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], stop });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the second server exited with ${code}: ${output}`));
    });
  });
}
