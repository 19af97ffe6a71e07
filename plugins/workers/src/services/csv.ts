import { csvText, DomainError, InvalidError, parseCsv, toCsv, type CsvRecord } from '@wpk/sdk';
import type { WorkersBaseContext, WorkersContext } from '../kit.js';
import { EMPLOYMENT_TYPES, type EmploymentType } from '../models/index.js';
import { locationIdOf } from './locations.js';
import { createWorker, workers } from './workers.js';

/** The columns of an export, in order; an import reads them by name (status is left out: an imported worker starts in onboarding). */
export const CSV_COLUMNS = ['name', 'work_email', 'title', 'department', 'manager_email', 'location_mrn', 'start_date', 'employment_type', 'status'] as const;
type Column = (typeof CSV_COLUMNS)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every worker of the workspace as CSV, by name: the department by name, the manager by work e-mail. */
export async function exportWorkers(ctx: WorkersBaseContext): Promise<string> {
  const departments = new Map((await ctx.db.departments.findAll({ attributes: ['id', 'name'] })).map((row) => [row.id, row.name]));
  const all = [];
  for await (const worker of workers.walk(ctx)) all.push(worker);
  const emails = new Map(all.map((worker) => [worker.id, worker.work_email]));
  return toCsv([...CSV_COLUMNS], all.map((worker) => [worker.name, worker.work_email, worker.title, worker.department_id ? departments.get(worker.department_id) : '', worker.manager_id ? emails.get(worker.manager_id) : '', worker.location_mrn, worker.start_date, worker.employment_type, worker.status]));
}

/** One refused cell of an import: its line in the file, its column, why. */
export interface ImportProblem {
  line: number;
  field: string;
  error: string;
}

/** A row that passed, as `createWorker` takes it (the manager by work e-mail until the earlier rows exist). */
interface ImportRow {
  line: number;
  name: string;
  work_email: string;
  title: string;
  department_id: string | null;
  manager_email: string | null;
  location_mrn: string | null;
  start_date: string | null;
  employment_type?: EmploymentType;
}

/** A real calendar day (`2027-02-30` is none). */
function isDay(text: string): boolean {
  if (!DATE.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** The records of the file with the header read: each row's cells by column name. */
function readFile(csv: string): { header: CsvRecord; rows: Array<{ line: number; cells: Partial<Record<Column, string>> }>; problems: ImportProblem[] } {
  let records: CsvRecord[];
  try {
    records = parseCsv(csv);
  } catch (error) {
    if (error instanceof DomainError) throw new InvalidError(`csv: ${error.message}`, { field: 'csv' });
    throw error;
  }
  const [header, ...body] = records;
  if (!header) throw new InvalidError('csv must have a header line and at least one worker', { field: 'csv' });
  const problems: ImportProblem[] = [];
  const names = header.fields.map((name) => name.trim().toLowerCase());
  names.forEach((name) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) problems.push({ line: header.line, field: name || '(empty)', error: `unknown column; the columns are ${CSV_COLUMNS.join(', ')}` });
  });
  for (const required of ['name', 'work_email']) if (!names.includes(required)) problems.push({ line: header.line, field: required, error: 'the column is missing' });
  const rows = body.map((record) => {
    const cells: Partial<Record<Column, string>> = {};
    names.forEach((name, index) => {
      if ((CSV_COLUMNS as readonly string[]).includes(name)) cells[name as Column] = csvText(record.fields[index] ?? '').trim();
    });
    if (record.fields.length > names.length) problems.push({ line: record.line, field: '(row)', error: `has ${record.fields.length} fields; the header has ${names.length}` });
    return { line: record.line, cells };
  });
  return { header, rows, problems };
}

/**
 * Checks every row of an import (each bad cell is one problem, by line and column): the name,
 * a work e-mail no worker has (in the workspace or earlier in the file), a department by name, a
 * manager by work e-mail (a worker, or a row above), the location, the start date, the
 * employment type.
 */
async function checkRows(ctx: WorkersBaseContext, csv: string): Promise<{ rows: ImportRow[]; problems: ImportProblem[] }> {
  const { rows, problems } = readFile(csv);
  const departments = new Map((await ctx.db.departments.findAll({ attributes: ['id', 'name'] })).map((row) => [row.name.toLowerCase(), row.id]));
  const taken = new Set((await ctx.db.workers.findAll({ attributes: ['work_email'] })).map((row) => row.work_email.toLowerCase()));
  const places = new Map((await ctx.db.locations.findAll({ attributes: ['id', 'deleted'] })).map((row) => [row.id, row.deleted]));
  const checked: ImportRow[] = [];
  for (const { line, cells } of rows) {
    const refuse = (field: string, error: string) => problems.push({ line, field, error });
    const name = cells.name ?? '';
    if (!name) refuse('name', 'is required');
    else if (name.length > 200) refuse('name', 'must be at most 200 characters');
    const email = cells.work_email ?? '';
    if (!EMAIL.test(email) || email.length > 320) refuse('work_email', `must be an e-mail address (got ${JSON.stringify(email)})`);
    else if (taken.has(email.toLowerCase())) refuse('work_email', `${email} is already the work e-mail of a worker (in the workspace or above in the file)`);
    const title = cells.title ?? '';
    if (title.length > 200) refuse('title', 'must be at most 200 characters');
    const department = cells.department ? departments.get(cells.department.toLowerCase()) : null;
    if (department === undefined) refuse('department', `${cells.department} is not a department of this workspace`);
    const manager = cells.manager_email || null;
    if (manager && !taken.has(manager.toLowerCase())) refuse('manager_email', `${manager} is the work e-mail of no worker (in the workspace or above in the file)`);
    const location = cells.location_mrn || null;
    if (location && !/^mrn:settings:location:[^:\s]+$/.test(location)) refuse('location_mrn', 'must be a settings location MRN: mrn:settings:location: and its id');
    else if (location && places.get(locationIdOf(location) ?? '') !== false) refuse('location_mrn', `${location} is ${places.get(locationIdOf(location) ?? '') ? 'a location deleted in' : 'no location of'} the Settings app`);
    const start = cells.start_date || null;
    if (start && !isDay(start)) refuse('start_date', `must be a day as YYYY-MM-DD (got ${start})`);
    const type = cells.employment_type || null;
    if (type && !(EMPLOYMENT_TYPES as readonly string[]).includes(type)) refuse('employment_type', `must be one of ${EMPLOYMENT_TYPES.join(', ')}`);
    if (EMAIL.test(email)) taken.add(email.toLowerCase());
    checked.push({ line, name, work_email: email, title, department_id: department ?? null, manager_email: manager, location_mrn: location, start_date: start, ...(type ? { employment_type: type as EmploymentType } : {}) });
  }
  if (rows.length === 0) problems.push({ line: 2, field: '(row)', error: 'the file has no worker' });
  return { rows: checked, problems };
}

/**
 * Imports workers from CSV. A dry run answers every problem and writes nothing. A real import
 * writes nothing unless every row is valid (then 400 naming the first problem and how many more);
 * otherwise it adds every row in order (each `worker.hired`), the managers by work e-mail.
 */
export async function importWorkers(ctx: WorkersContext, csv: string, dryRun: boolean) {
  await ctx.lock('managers');
  const { rows, problems } = await checkRows(ctx, csv);
  if (dryRun || problems.length) {
    if (!dryRun) {
      const [first] = problems;
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s): a dry run lists every one)` : '';
      throw new InvalidError(`csv line ${first.line}, ${first.field}: ${first.error}${more}; nothing was imported`, { field: 'csv' });
    }
    return { dry_run: dryRun, rows: rows.length, valid: problems.length === 0, problems, imported: 0 };
  }
  const ids = new Map((await ctx.db.workers.findAll({ attributes: ['id', 'work_email'] })).map((row) => [row.work_email.toLowerCase(), row.id]));
  for (const row of rows) {
    const { line: _line, manager_email, ...fields } = row;
    const worker = await createWorker(ctx, { ...fields, manager_id: manager_email ? ids.get(manager_email.toLowerCase())! : null });
    ids.set(worker.work_email.toLowerCase(), worker.id);
  }
  return { dry_run: false, rows: rows.length, valid: true, problems: [], imported: rows.length };
}
