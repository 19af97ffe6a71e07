/** MRN cells as written: the record named must be one this app keeps a copy of (see sources.ts). */
import { InvalidError } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Field } from '../models/index.js';

/** An MRN cell as stored. */
export interface MrnCell { mrn: string; name: string; deleted: boolean }

/** The stored cell for a written MRN: the record must be one this app has heard of and not deleted (a member: of the workspace). */
export async function resolveMrn(ctx: AnyCtx, field: Field, mrn: string, path: string): Promise<MrnCell> {
  if (field.options.source === 'member') {
    const member = await ctx.members.get(mrn);
    if (!member) throw new InvalidError(`${path}: ${mrn} is not a member of this workspace`, { field: path });
    return { mrn: mrn.toLowerCase(), name: member.name, deleted: false };
  }
  const copy = await ctx.db.sources.findOne({ where: { mrn: mrn.toLowerCase() } });
  if (!copy || copy.deleted) throw new InvalidError(`${path}: no ${String(field.options.source)} ${mrn} is known here${copy ? ' (it was deleted)' : ''}`, { field: path });
  return { mrn: copy.mrn, name: copy.name, deleted: false };
}
