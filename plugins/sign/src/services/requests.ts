import { createHash } from 'node:crypto';
import { formatMrn } from '@wpk/sdk';
import type { EventCtx } from '../kit.js';
import { audit, SYSTEM } from './audit.js';
import { readDocument } from './documents.js';
import { envelopeDocument } from './envelopes.js';

/** The payload every `*.signature_requested` action carries (LOOP.md's contract). */
export interface SignatureRequest {
  source_mrn: string;
  requested_by: string;
  title: string;
  message?: string;
  signers: Array<{ name: string; email: string; member_id?: string; role: 'signer' | 'approver' | 'copy'; group: number }>;
  document: { filename: string; content_type: string; sha256: string; data_base64: string };
}

/**
 * A `*.signature_requested` delivery → the requester's draft envelope, with the document (sign's
 * own copy, its hash checked), `source_mrn` and the recipients. Exactly once per delivery: the
 * delivery's id is a unique key of the envelope, so a redelivery (or a concurrent one) makes nothing.
 */
export async function draftFromRequest(ctx: EventCtx, event: { action: string; payload: object; deliveryId?: string; metadata: Record<string, unknown> }): Promise<void> {
  const request = event.payload as SignatureRequest;
  const deliveryKey = event.deliveryId ?? (typeof event.metadata.event_id === 'string' ? event.metadata.event_id : null) ?? createHash('sha256').update(`${event.action}:${request.source_mrn}:${request.document.sha256}`).digest('hex');
  await ctx.lock(`delivery:${deliveryKey}`);
  if (await ctx.db.envelopes.findOne({ where: { delivery_key: deliveryKey } })) return;
  const owner = await ctx.members.get(request.requested_by);
  if (!owner) {
    ctx.log.warn({ requested_by: request.requested_by, action: event.action }, 'signature request from someone who is not a member: ignored');
    return;
  }
  let document;
  try {
    document = await readDocument(request.document);
  } catch (error) {
    ctx.log.warn({ err: error, action: event.action, source_mrn: request.source_mrn }, 'signature request with a document that is not a readable PDF or does not match its hash: ignored');
    return;
  }
  const members = new Set((await ctx.members.getMany(request.signers.map((one) => one.member_id).filter((id): id is string => Boolean(id)))).keys());
  const envelope = await ctx.db.envelopes.create({
    title: request.title.slice(0, 200),
    message: (request.message ?? '').slice(0, 4000),
    status: 'draft',
    source_mrn: request.source_mrn,
    owner_id: owner.id,
    template_id: null,
    merge_values: {},
    document_key: 'pending',
    document_filename: document.filename.slice(0, 255),
    original_sha256: document.sha256,
    page_count: document.pages,
    delivery_key: deliveryKey,
  });
  const key = `envelopes/${envelope.id}/original.pdf`;
  await ctx.db.envelopes.update({ document_key: key }, { where: { id: envelope.id } });
  await ctx.storage.put(key, document.bytes, { contentType: 'application/pdf' });
  const seen = new Set<string>();
  let position = 0;
  for (const signer of request.signers) {
    const email = signer.email.trim().toLowerCase();
    if (seen.has(email)) continue;
    seen.add(email);
    await ctx.db.recipients.create({ envelope_id: envelope.id, name: signer.name.slice(0, 200), email, member_id: signer.member_id && members.has(signer.member_id) ? signer.member_id : null, role: signer.role, group_no: signer.group, position: position++, status: 'pending', fields: [] });
  }
  const row = (await ctx.db.envelopes.findById(envelope.id))!;
  await audit(ctx, row, null, 'created', `${event.action} (${formatMrn('account', 'member', owner.id)})`, SYSTEM, { source_mrn: request.source_mrn, original_sha256: document.sha256 });
  ctx.search.upsert(envelopeDocument(row));
}
