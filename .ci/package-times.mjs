// Prints how long each package's tests took in the newest turbo run summary (.turbo/runs, written
// when TURBO_RUN_SUMMARY=true), slowest first, and what the apps' share projects for 25 apps:
// the apps' mean time a package, times 25, plus what is not an app. Used by .ci/run after each
// test stage, so the log shows which package grows and whether the stage stays in budget.
import fs from 'node:fs';
import path from 'node:path';

const APPS_PLANNED = 25;
const dir = '.turbo/runs';
const newest = fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.endsWith('.json')).map((file) => path.join(dir, file)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0] : undefined;
if (!newest) {
  console.log('package times: no turbo run summary found');
  process.exit(0);
}
const summary = JSON.parse(fs.readFileSync(newest, 'utf8'));
const rows = summary.tasks
  .filter((task) => task.execution)
  .map((task) => ({ name: task.package, dir: task.directory ?? '', seconds: (task.execution.endTime - task.execution.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds);
for (const row of rows) console.log(`  ${row.seconds.toFixed(0).padStart(5)} s  ${row.name}`);
const apps = rows.filter((row) => row.dir.startsWith('plugins/'));
const rest = rows.filter((row) => !row.dir.startsWith('plugins/'));
const sum = (list) => list.reduce((total, row) => total + row.seconds, 0);
// The stage's wall time beside the packages' summed times (equal when one package runs at a time;
// a run with more at once shows the difference); the projection scales that wall time by the
// projected sum.
const wall = summary.execution?.endTime && summary.execution?.startTime ? (summary.execution.endTime - summary.execution.startTime) / 1000 : null;
if (wall !== null) console.log(`  the packages' times add up to ${sum(rows).toFixed(0)} s in ${wall.toFixed(0)} s of wall time`);
if (apps.length > 0) {
  const mean = sum(apps) / apps.length;
  const projected = sum(rest) + mean * Math.max(APPS_PLANNED, apps.length);
  const projectedWall = wall !== null && sum(rows) > 0 ? ` (~${((wall * projected) / sum(rows)).toFixed(0)} s of wall time)` : '';
  console.log(`  apps: ${apps.length} packages, ${sum(apps).toFixed(0)} s (mean ${mean.toFixed(0)} s); the rest ${sum(rest).toFixed(0)} s; with ${APPS_PLANNED} apps at that mean: ~${projected.toFixed(0)} s${projectedWall}`);
}
