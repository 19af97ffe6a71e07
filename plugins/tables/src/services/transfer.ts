/**
 * CSV and XLSX: a table's records exported (the header row is the field names), and imported
 * (csv-parse, exceljs) with a dry run that reports every bad cell by line and column. A real
 * import is all or nothing: a file with a bad cell writes nothing and is refused naming the first.
 */
import { InvalidError, PayloadTooLargeError } from '@wpk/sdk';
import { parse } from 'csv-parse/sync';
/** ExcelJS loads on the first XLSX export or import: most processes never read a workbook. */
const excel = async () => (await import('exceljs')).default;
import type { Ctx } from '../kit.js';
import type { Field } from '../models/index.js';
import { requireTable } from './access.js';
import { COMPUTED, convert, display, normalize } from './cells.js';
import { listRecordsAll } from './query.js';
import { fieldsOf, insertRecords } from './records.js';

/** The most rows an import takes. */
export const MAX_IMPORT_ROWS = 5000;

/** One bad cell of an import: its line (1 = the header) and column (1-based), and why. */
export interface ImportError { line: number; column: number; field: string; value: string; error: string }

/** A table's records as CSV or XLSX, in the view's order and filters when one is named. */
export async function exportTable(ctx: Ctx, tableId: string, format: 'csv' | 'xlsx', viewId?: string): Promise<{ body: string | Buffer; filename: string; contentType: string }> {
  const { table } = await requireTable(ctx, tableId, 'viewer');
  const { fields, rows } = await listRecordsAll(ctx, table.id, viewId);
  const safe = table.name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'table';
  if (format === 'csv') {
    const quote = (text: string) => (/[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"` : text);
    const lines = [fields.map((field) => quote(field.name)).join(','), ...rows.map((row) => fields.map((field) => quote(display(row.cells[field.id]))).join(','))];
    return { body: `${lines.join('\r\n')}\r\n`, filename: `${safe}.csv`, contentType: 'text/csv; charset=utf-8' };
  }
  const workbook = new (await excel()).Workbook();
  const sheet = workbook.addWorksheet(table.name.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Table');
  sheet.addRow(fields.map((field) => field.name));
  for (const row of rows) {
    sheet.addRow(fields.map((field) => {
      const value = row.cells[field.id];
      if (typeof value === 'number' || typeof value === 'boolean') return value;
      if (field.type === 'currency' && typeof value === 'string') return Number(value);
      return display(value);
    }));
  }
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return { body: buffer, filename: `${safe}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
}

/** The file's rows as text cells with their line numbers. */
async function readRows(format: 'csv' | 'xlsx', content: string): Promise<Array<{ line: number; cells: string[] }>> {
  if (format === 'csv') {
    let records: Array<{ record: string[]; info: { lines: number } }>;
    try {
      records = parse(content, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as never;
    } catch (error) {
      throw new InvalidError(`content: not CSV (${(error as Error).message})`, { field: 'content' });
    }
    return records.map((entry) => ({ line: entry.info.lines, cells: entry.record }));
  }
  const workbook = new (await excel()).Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(content, 'base64') as never);
  } catch {
    throw new InvalidError('content: not an XLSX workbook (send the file base64-encoded)', { field: 'content' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new InvalidError('content: the workbook has no sheet', { field: 'content' });
  const rows: Array<{ line: number; cells: string[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) cells.push(row.getCell(column).text ?? '');
    rows.push({ line: number, cells });
  });
  return rows;
}

/** A text cell of the file as the field's value; throws an Error saying why it cannot be. */
function parseCell(field: Field, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return normalize(field, null);
  switch (field.type) {
    case 'text':
    case 'long_text':
      return normalize(field, text);
    case 'single_select':
      return normalize(field, trimmed);
    case 'multiple_select':
      return normalize(field, trimmed.split(',').map((item) => item.trim()).filter(Boolean));
    case 'link':
      return normalize(field, trimmed.split(',').map((item) => item.trim()).filter(Boolean));
    case 'member':
      return normalize(field, trimmed);
    case 'currency':
      return normalize(field, trimmed.replace(/,/g, ''));
    default: {
      const result = convert(trimmed, field, () => {});
      if (!('failed' in result)) return result.value;
      normalize(field, trimmed);
      throw new Error(`${field.name} cannot hold ${trimmed}`);
    }
  }
}

/**
 * Imports records from a CSV or XLSX file whose first row names fields. A dry run writes nothing
 * and answers every bad cell by line and column; a real import with a bad cell is refused naming
 * the first, and otherwise adds every row (one `record.created` each).
 */
export async function importTable(ctx: Ctx, tableId: string, input: { format: 'csv' | 'xlsx'; content: string; dry_run?: boolean }) {
  const { table } = await requireTable(ctx, tableId, 'editor', 'update');
  const fields = await fieldsOf(ctx, table.id);
  const rows = await readRows(input.format, input.content);
  if (!rows.length) throw new InvalidError('content: the file has no header row naming the fields', { field: 'content' });
  if (rows.length - 1 > MAX_IMPORT_ROWS) throw new PayloadTooLargeError(`An import takes at most ${MAX_IMPORT_ROWS} rows; this file has ${rows.length - 1}`);
  const [header, ...body] = rows;
  const byName = new Map(fields.map((field) => [field.name.toLowerCase(), field]));
  const columns: Array<Field | null> = [];
  const ignored: string[] = [];
  header!.cells.forEach((name, index) => {
    const field = byName.get(name.trim().toLowerCase());
    if (!field) throw new InvalidError(`content: line 1, column ${index + 1}: ${name} names no field of table ${table.name}`, { field: 'content' });
    if (COMPUTED.has(field.type) || field.type === 'attachment') {
      ignored.push(field.name);
      columns.push(null);
    } else columns.push(field);
  });
  const errors: ImportError[] = [];
  const inputs: Array<{ cells: Record<string, unknown> }> = [];
  for (const row of body) {
    const cells: Record<string, unknown> = {};
    columns.forEach((field, index) => {
      if (!field) return;
      const text = row.cells[index] ?? '';
      try {
        cells[field.id] = parseCell(field, text);
      } catch (error) {
        errors.push({ line: row.line, column: index + 1, field: field.name, value: text, error: (error as Error).message });
      }
    });
    inputs.push({ cells });
  }
  const linkOrMember = columns.filter((field): field is Field => Boolean(field) && (field!.type === 'link' || field!.type === 'member'));
  if (!errors.length && linkOrMember.length) {
    for (const [index, item] of inputs.entries()) {
      for (const field of linkOrMember) {
        const value = item.cells[field.id];
        if (!value) continue;
        if (field.type === 'member') {
          const found = await ctx.members.get(value as string);
          if (!found) errors.push({ line: body[index]!.line, column: columns.indexOf(field) + 1, field: field.name, value: String(value), error: `${value} is not a member of this workspace` });
        } else {
          const ids = value as string[];
          const known = (await ctx.db.records.findAll({ where: { id: ids, table_id: field.options.table_id as string }, attributes: ['id'] })).map((one) => one.id);
          const missing = ids.find((id) => !known.includes(id));
          if (missing) errors.push({ line: body[index]!.line, column: columns.indexOf(field) + 1, field: field.name, value: display(value), error: `${field.name} links to no record ${missing} of its table` });
        }
      }
    }
  }
  const report = { dry_run: Boolean(input.dry_run), rows: body.length, created: 0, ignored_columns: ignored, errors };
  if (input.dry_run) return report;
  if (errors.length) {
    const first = errors[0]!;
    throw new InvalidError(`content: line ${first.line}, column ${first.column} (${first.field}): ${first.error}; ${errors.length} bad cell${errors.length === 1 ? '' : 's'} in all (a dry run lists them)`, { field: 'content' });
  }
  const made = await insertRecords(ctx, table, inputs, null, ctx.member.id);
  return { ...report, created: made.length };
}
