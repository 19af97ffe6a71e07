/**
 * MRN fields: a cell names another app's record (a member, worker, company, contact or task) by
 * its MRN and shows it from this app's copy, fed by that app's events. A rename reaches every cell
 * that names the record; a deletion flags them (`deleted: true`), keeping the last name.
 */
import type { AnyCtx } from '../kit.js';
import type { SourceKind } from '../models/index.js';
import type { MrnCell } from './mrn-cells.js';
import { fieldsOf, LinkedRecords, writeCells } from './records.js';

export { resolveMrn, type MrnCell } from './mrn-cells.js';

/**
 * Keeps a source's copy from its app's event (a lower revision than the copy's is ignored) and
 * carries a new name or a deletion to every cell that names it (versions bumped, live).
 */
export async function keepSource(ctx: AnyCtx, input: { kind: SourceKind; mrn: string; name?: string; deleted?: boolean; revision?: number }): Promise<void> {
  const mrn = input.mrn.toLowerCase();
  const copy = await ctx.db.sources.findOne({ where: { mrn }, lock: 'update' });
  if (copy && input.revision !== undefined && copy.revision > input.revision) return;
  const name = (input.name ?? copy?.name ?? mrn).slice(0, 500);
  const deleted = input.deleted ?? false;
  if (!copy) await ctx.db.sources.create({ mrn, kind: input.kind, name, deleted, revision: input.revision ?? 0 });
  else await ctx.db.sources.update({ name, deleted, revision: input.revision ?? copy.revision }, { where: { id: copy.id } });
  if (copy && copy.name === name && copy.deleted === deleted) return;
  await refreshCells(ctx, input.kind, mrn, { name, deleted });
}

/** A member removed from the workspace: the cells naming them are flagged. */
export async function memberGone(ctx: AnyCtx, memberId: string): Promise<void> {
  await refreshCells(ctx, 'member', `mrn:account:member:${memberId}`, { deleted: true });
}

async function refreshCells(ctx: AnyCtx, kind: SourceKind, mrn: string, change: { name?: string; deleted: boolean }): Promise<void> {
  const mrnFields = (await ctx.db.fields.findAll({ where: { type: 'mrn' } })).filter((field) => field.options.source === kind);
  const tableIds = [...new Set(mrnFields.map((field) => field.table_id))];
  for (const tableId of tableIds) {
    const table = await ctx.db.tables.findById(tableId);
    if (!table) continue;
    const fields = await fieldsOf(ctx, tableId);
    const mine = mrnFields.filter((field) => field.table_id === tableId);
    const linked = new LinkedRecords(ctx);
    for (const record of await ctx.db.records.findAll({ where: { table_id: tableId } })) {
      const written: Record<string, unknown> = {};
      for (const field of mine) {
        const cell = record.cells[field.id] as MrnCell | null | undefined;
        if (cell && cell.mrn === mrn) written[field.id] = { mrn, name: change.name ?? cell.name, deleted: change.deleted };
      }
      if (Object.keys(written).length) await writeCells(ctx, table, fields, record, written, linked, null, false);
    }
  }
}
