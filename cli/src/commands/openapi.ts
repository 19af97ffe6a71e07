import { Command } from 'commander';
import fs from 'node:fs/promises';
import path from 'node:path';
import { openRuntime } from '../options.js';

/**
 * `wpk openapi`: the OpenAPI 3.1 document of core's routes and every app the project loads, the
 * same document the server answers at `/openapi.json`. Nothing is migrated or listened on: the
 * route table is read from a runtime on an in-memory database.
 */
export function openapiCommand(): Command {
  return new Command('openapi')
    .description('write the OpenAPI 3.1 document of the platform and its apps (stdout, or --out)')
    .option('--app <slug>', "only this app's operations (account: the platform's own)")
    .option('--out <file>', 'write the document to this file instead of stdout')
    .action(async (options: { app?: string; out?: string }) => {
      const runtime = await openRuntime({ inMemory: true });
      try {
        const text = `${JSON.stringify(runtime.openApiDocument({ app: options.app }), null, 2)}\n`;
        if (!options.out) {
          process.stdout.write(text);
          return;
        }
        await fs.mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
        await fs.writeFile(options.out, text);
        console.error(`wrote ${options.out}`);
      } finally {
        await runtime.stop();
      }
    });
}
