import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedApp } from '@wpk/core';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { unusedPermissions } from '../unused-permissions.js';

interface ValidateOptions {
  firstParty?: boolean;
  json?: boolean;
  strict?: boolean;
}

/** Validates one directory: an app (app.json), or a project (wpk.config.*) and every app it names. */
async function validateDirectory(dir: string, options: ValidateOptions): Promise<{ apps: LoadedApp[]; problems: string[] }> {
  const { AppLoadError, CONFIG_FILES, isKitPackage, loadApps, readProjectConfig } = await loadCore();
  const absolute = path.resolve(dir);
  if (!fs.existsSync(absolute)) return { apps: [], problems: [`${dir}: no such directory`] };
  try {
    if (!fs.existsSync(path.join(absolute, 'app.json')) && CONFIG_FILES.some((name) => fs.existsSync(path.join(absolute, name)))) {
      const project = await readProjectConfig(absolute);
      return { apps: await loadApps(project.apps, absolute), problems: [] };
    }
    if (!fs.existsSync(path.join(absolute, 'app.json'))) return { apps: [], problems: [`${dir}: no app.json (an app) and no wpk.config file (a project) here`] };
    const firstParty = options.firstParty === true || isKitPackage(absolute);
    return { apps: await loadApps([{ dir: absolute, firstParty }], process.cwd()), problems: [] };
  } catch (error) {
    if (error instanceof AppLoadError) return { apps: [], problems: error.problems };
    throw error;
  }
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function validateCommand(): Command {
  return new Command('validate')
    .description("validate app manifests against the rules and the apps' code; prints every problem, exits 1 on any")
    .argument('[dirs...]', 'app directories (with app.json) or project directories (with wpk.config.*); default: .')
    .option('--first-party', 'validate the apps as first-party (default: only packages of the @wpk/ scope are)')
    .option('--strict', 'a declared permission nothing uses is a problem, not a warning')
    .option('--json', 'print {"apps": [...], "problems": [...], "warnings": [...]} as JSON')
    .action(async (dirs: string[], options: ValidateOptions) => {
      const apps: LoadedApp[] = [];
      const problems: string[] = [];
      for (const dir of dirs.length > 0 ? dirs : ['.']) {
        const result = await validateDirectory(dir, options);
        apps.push(...result.apps);
        problems.push(...result.problems);
      }
      // A permission no route checks grants nothing: an admin would tick it in the matrix for no effect.
      const unused = apps.flatMap((app) => unusedPermissions(app).map((entry) => `${entry.file}: ${entry.field}: ${entry.key} is declared but nothing uses it (no route's chain, searchable type, live channel or code names it)`));
      const warnings = options.strict ? [] : unused;
      if (options.strict) problems.push(...unused);
      if (options.json) {
        console.log(JSON.stringify({ apps: apps.map((app) => ({ slug: app.namespace, version: app.manifest.version, file: app.file, first_party: app.firstParty })), problems, warnings }));
      } else {
        for (const app of apps) {
          const manifest = app.manifest;
          const parts = [count(manifest.authorization.length, 'route'), count(manifest.permissions.length, 'permission'), count(manifest.events?.length ?? 0, 'event'), count(manifest.subscriptions?.length ?? 0, 'subscription')];
          console.log(`ok ${app.file}: ${app.namespace} ${manifest.version}${app.firstParty ? ' (first-party)' : ''}, ${parts.join(', ')}`);
        }
        for (const warning of warnings) console.log(`warning: ${warning}`);
        for (const problem of problems) console.log(problem);
      }
      if (problems.length > 0) throw new CliError(`${count(problems.length, 'problem')} found`);
    });
}
