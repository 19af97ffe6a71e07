import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';

interface BuildOptions {
  out?: string;
}

/** `wpk ui build [dir]`: an app's front-end (`ui/main.ts`) bundled with the kit into `dist/ui`, within the bundle budget. */
export function uiCommand(): Command {
  const ui = new Command('ui').description("an app's front-end (docs/ui.md)");
  ui.command('build')
    .description("bundle the app's ui/ with @wpk/ui into fingerprinted files and an index.html (default dist/ui); exits 1 over the bundle budget")
    .argument('[dir]', 'the app directory (with app.json and ui/main.ts); default: .')
    .option('--out <dir>', 'where the files go (default: {dir}/dist/ui)')
    .action(async (dir: string | undefined, options: BuildOptions) => {
      const appDir = path.resolve(dir ?? '.');
      const manifestFile = path.join(appDir, 'app.json');
      if (!fs.existsSync(manifestFile)) throw new CliError(`${dir ?? '.'}: no app.json here`);
      if (!fs.existsSync(path.join(appDir, 'ui', 'main.ts'))) throw new CliError(`${dir ?? '.'}: no ui/main.ts here (an app's front-end starts there)`);
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { name: string; tile?: { name?: string } };
      const { BUNDLE_BUDGET_BYTES, LAZY_BUDGET_BYTES, WORKER_BUDGET_BYTES, buildAppUi } = await import('@wpk/ui/build');
      const outDir = path.resolve(options.out ?? path.join(appDir, 'dist', 'ui'));
      const built = await buildAppUi({ appDir, outDir, title: manifest.tile?.name ?? manifest.name });
      for (const file of built.files) console.log(`${file.name}  ${file.bytes} B (${file.gzipBytes} B gzipped)`);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
      console.log(`wrote ${path.relative(process.cwd(), outDir) || '.'}: ${kb(built.gzipBytes)} gzipped of the ${kb(BUNDLE_BUDGET_BYTES)} budget`);
      if (built.lazyGzipBytes > 0) console.log(`and ${kb(built.lazyGzipBytes)} gzipped loaded on demand, of the ${kb(LAZY_BUDGET_BYTES)} budget`);
      if (built.workerGzipBytes > 0) console.log(`and ${kb(built.workerGzipBytes)} gzipped of workers' scripts, of the ${kb(WORKER_BUDGET_BYTES)} budget`);
      if (built.gzipBytes > BUNDLE_BUDGET_BYTES) throw new CliError(`the front-end is ${kb(built.gzipBytes)} gzipped, over the ${kb(BUNDLE_BUDGET_BYTES)} budget`);
      if (built.lazyGzipBytes > LAZY_BUDGET_BYTES) throw new CliError(`the front-end's on-demand chunks are ${kb(built.lazyGzipBytes)} gzipped, over the ${kb(LAZY_BUDGET_BYTES)} budget`);
      if (built.workerGzipBytes > WORKER_BUDGET_BYTES) throw new CliError(`the front-end's workers' scripts are ${kb(built.workerGzipBytes)} gzipped, over the ${kb(WORKER_BUDGET_BYTES)} budget`);
    });
  return ui;
}
