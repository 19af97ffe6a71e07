import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import { loadCore, loadSdkTooling } from '../kit.js';
import { syncManifest } from './manifest.js';

interface TypesOptions {
  out?: string;
  check?: boolean;
}

export function typesCommand(): Command {
  return new Command('types')
    .description("bring app.json's authorization table in step with the code's routes (as wpk manifest), then generate the app's TypeScript contract from app.json: event payloads by action (the platform catalog's included) and settings")
    .argument('[dirs...]', 'the app directories (with app.json); several are checked or written one after another', ['.'])
    .option('--out <file>', 'the file to write, relative to the app directory (default src/app.types.ts)')
    .option('--check', 'write nothing; exit 1 when app.json or the types file is not what the code and app.json give (for CI)')
    .action(async (dirs: string[], options: TypesOptions) => {
      if (options.out && dirs.length > 1) throw new CliError('--out names one file: give one app directory with it');
      for (const dir of dirs) await typesOf(path.resolve(dir), options);
    });
}

/** `wpk types` for one app directory. */
async function typesOf(appDir: string, options: TypesOptions): Promise<void> {
  const { DEFAULT_TYPES_FILE, generateAppTypes } = await import('../types/generate.js');
  const manifestFile = path.join(appDir, 'app.json');
  if (!fs.existsSync(manifestFile)) throw new CliError(`${path.relative(process.cwd(), manifestFile) || 'app.json'}: no such file (wpk types runs in an app directory)`);
  // The code is where routes are written; app.json's table follows it, then the types follow app.json.
  if ((await loadCore()).findEntryModule(appDir)) console.log(await syncManifest(appDir, options.check === true));
  let manifest: unknown;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    throw new CliError(`${path.relative(process.cwd(), manifestFile)}: not valid JSON (${(error as Error).message})`);
  }
  const { formatManifestProblem, validateManifest } = await loadSdkTooling();
  const problems = validateManifest(manifest, { file: path.relative(process.cwd(), manifestFile) || 'app.json', firstParty: true });
  if (problems.length > 0) {
    const error = new CliError(`${problems.length} problem${problems.length === 1 ? '' : 's'} in app.json:\n${problems.map((problem) => `  ${formatManifestProblem(problem)}`).join('\n')}`);
    (error as CliError & { problems?: unknown }).problems = problems;
    throw error;
  }
  const out = path.resolve(appDir, options.out ?? DEFAULT_TYPES_FILE);
  const shown = path.relative(process.cwd(), out) || out;
  const text = await generateAppTypes(manifest as Parameters<typeof generateAppTypes>[0]);
  if (options.check) {
    const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : null;
    if (current === null) throw new CliError(`${shown} is missing: run wpk types`);
    if (current !== text) throw new CliError(`${shown} is stale (app.json changed since it was generated): run wpk types`);
    console.log(`${shown} is up to date`);
    return;
  }
  const changed = !fs.existsSync(out) || fs.readFileSync(out, 'utf8') !== text;
  if (changed) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, text);
  }
  console.log(`${changed ? 'wrote' : 'unchanged:'} ${shown}`);
}
