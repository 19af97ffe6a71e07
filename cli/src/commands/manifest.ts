import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import { loadCore, loadSdk } from '../kit.js';

interface ManifestOptions {
  check?: boolean;
}

/**
 * Brings app.json's authorization table in step with the app's code (or, with `check`, throws when
 * it is not): each route declares its chain once, in its `route({...})`, and this copies the table
 * into the manifest publishers ship and `wpk validate` reads without running code. Returns what it
 * did, for the caller to print.
 */
export async function syncManifest(appDir: string, check: boolean): Promise<string> {
  const manifestFile = path.join(appDir, 'app.json');
  const shown = path.relative(process.cwd(), manifestFile) || 'app.json';
  if (!fs.existsSync(manifestFile)) throw new CliError(`${shown}: no such file (run it in an app directory)`);
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`${shown}: not valid JSON (${(error as Error).message})`);
  }
  const [{ importAppDefinition }, { authorizationTable }] = await Promise.all([loadCore(), loadSdk()]);
  let definition: Awaited<ReturnType<typeof importAppDefinition>>;
  try {
    definition = await importAppDefinition(appDir);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError(`app.json's authorization table is written from the app's code, which could not be loaded (${(error as Error).message.split('\n')[0]}): install the app's dependencies first`);
  }
  if (!definition) throw new CliError(`${path.relative(process.cwd(), appDir) || '.'}: no entry module (src/index.ts or the package's main)`);
  // The table comes from the code's routes; the rest of the manifest stays as written.
  const table = authorizationTable({ ...definition, manifest: manifest as never });
  const inStep = JSON.stringify(manifest.authorization) === JSON.stringify(table);
  if (check) {
    if (!inStep) throw new CliError(`${shown} is stale (a route's method, path, chain or description changed in the code): run wpk manifest`);
    return `${shown} is up to date`;
  }
  if (inStep) return `unchanged: ${shown}`;
  fs.writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, authorization: table }, null, 2)}\n`);
  return `wrote ${shown}`;
}

export function manifestCommand(): Command {
  return new Command('manifest')
    .description("write app.json's authorization table from the app's route declarations (method, path, chain, description)")
    .argument('[dir]', 'the app directory (with app.json and its entry module)', '.')
    .option('--check', 'write nothing; exit 1 when app.json differs from what the code gives (for CI)')
    .action(async (dir: string, options: ManifestOptions) => {
      console.log(await syncManifest(path.resolve(dir), options.check === true));
    });
}
