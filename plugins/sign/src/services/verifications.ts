import { InvalidError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import { sha256 } from './pdf.js';

/**
 * Says whether a file is one this workspace completed, unaltered: its SHA-256 is the final hash of
 * a completed envelope. A file that hashes to an envelope's original is recognised as such (not
 * signed); anything else, an altered copy included, is not verified.
 */
export async function verify(ctx: Ctx, input: { data_base64: string; filename?: string }) {
  const bytes = Buffer.from(input.data_base64, 'base64');
  if (bytes.length === 0) throw new InvalidError('data_base64 is empty', { field: 'data_base64' });
  const hash = sha256(bytes);
  const completed = await ctx.db.envelopes.findOne({ where: { final_sha256: hash, status: 'completed' } });
  if (completed) {
    return { verified: true, sha256: hash, envelope_id: completed.id, title: completed.title, source_mrn: completed.source_mrn, completed_at: completed.completed_at, original_sha256: completed.original_sha256, message: `Completed by this workspace on ${completed.completed_at!.toISOString()} and unaltered since` };
  }
  const original = await ctx.db.envelopes.findOne({ where: { original_sha256: hash } });
  if (original) return { verified: false, sha256: hash, envelope_id: null, title: null, source_mrn: null, completed_at: null, original_sha256: null, message: `This is the unsigned original of an envelope, not a completed file` };
  return { verified: false, sha256: hash, envelope_id: null, title: null, source_mrn: null, completed_at: null, original_sha256: null, message: 'Not a file this workspace completed, or altered since' };
}
