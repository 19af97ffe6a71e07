/**
 * Asking for a paper's signature (docs/decisions/0302-papers-signature-requests.md): the paper is
 * printed to PDF by the existing export, and `core.papers.paper.signature_requested` carries the
 * PDF, its hash and the signers (the `*.signature_requested` contract CRM's quotes follow), so the
 * Sign app makes the requester's draft envelope from the event alone.
 */
import { createHash } from 'node:crypto';
import { ConflictError, fileNameOf, type RichTextNode, richTextToPdf } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import { ensureLevel, requirePaper } from './access.js';
import { paperDocuments } from './documents.js';
import { inlineImages } from './images.js';

/** The biggest PDF the signature contract carries (2 MB decoded, as CRM's quotes). */
export const MAX_SIGNATURE_DOCUMENT = 2 * 1024 * 1024;

export interface SignerInput {
  member_mrn?: string;
  name?: string;
  email?: string;
  role?: 'signer' | 'approver' | 'copy';
  group?: number;
}

export const paperMrn = (paperId: string) => `mrn:papers:paper:${paperId}`;

/**
 * Sends the paper for signature (the level edit): members by their MRN (their name and e-mail from
 * the member directory), others by name and e-mail. Emits `core.papers.paper.signature_requested`
 * once; a failure (no Chromium: 503; a PDF over 2 MB: 409) emits nothing.
 */
export async function requestSignature(ctx: Ctx, paperId: string, input: { signers: SignerInput[]; message?: string }) {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'edit', 'request signatures on');
  const members = await ctx.members.require(input.signers.map((one) => one.member_mrn).filter((mrn): mrn is string => Boolean(mrn)), 'signers.member_mrn');
  const byMrn = new Map([...members.values()].map((member) => [member.mrn, member]));
  const signers = input.signers.map((one) => {
    const member = one.member_mrn ? byMrn.get(one.member_mrn) : undefined;
    return {
      name: (member ? member.name : one.name!.trim()).slice(0, 200),
      email: member ? member.email : one.email!.trim(),
      ...(member ? { member_id: member.id } : {}),
      role: one.role ?? 'signer',
      group: one.group ?? 1,
    };
  });
  const stored = ((await paperDocuments.snapshot(ctx, paper.id))?.content ?? { type: 'doc' }) as RichTextNode;
  const bytes = await richTextToPdf(await inlineImages(ctx, paper.id, stored), { title: paper.title });
  if (bytes.length > MAX_SIGNATURE_DOCUMENT) throw new ConflictError(`Paper ${paper.id}'s PDF is ${bytes.length} bytes: more than the 2 MB a signature request carries`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const filename = `${fileNameOf(paper.title.slice(0, 200))}.pdf`;
  const title = paper.title.slice(0, 200);
  const requestedAt = ctx.now();
  ctx.events.stage('core.papers.paper.signature_requested', {
    paper_id: paper.id,
    source_mrn: paperMrn(paper.id),
    requested_by: ctx.member.id,
    title,
    ...(input.message ? { message: input.message } : {}),
    signers,
    document: { filename, content_type: 'application/pdf', sha256, data_base64: bytes.toString('base64') },
  });
  return { paper_id: paper.id, source_mrn: paperMrn(paper.id), title, signers, filename, sha256, size_bytes: bytes.length, requested_at: requestedAt.toISOString() };
}
