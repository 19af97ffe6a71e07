/**
 * The Sign app's records for the route-table guards: a template, a sent envelope with an external
 * signer (whose link token is the `{token}` of `/sign/signing/{token}`) and its recipient, so every
 * sign route has a record of each workspace to name.
 */

/** What the Sign app seeds. */
export type SignSeedKind = 'sign_template' | 'sign_envelope' | 'sign_recipient' | 'sign_token';

/** Path parameters of the app's routes, by first path segment (`/sign/envelopes/{envelope_id}`). */
export const SIGN_PARAM_KINDS: Record<string, Record<string, SignSeedKind>> = {
  sign: { template_id: 'sign_template', envelope_id: 'sign_envelope', recipient_id: 'sign_recipient', token: 'sign_token' },
};

/** A one-page PDF, the smallest the app reads. */
const PDF = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\nxref\n0 4\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n0000000115 00000 n \ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n186\n%%EOF\n';

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds Sign: a template, and a sent envelope whose external signer's link is live. */
export async function seedSign(call: Call, marker: string): Promise<Record<SignSeedKind, string>> {
  await call('POST', '/applications/sign/installations', {});
  const document = { filename: `${marker}.pdf`, data_base64: Buffer.from(PDF, 'latin1').toString('base64') };
  const field = { type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.05 };
  const template = (await call('POST', '/sign/templates', { name: `${marker} template`, document, roles: ['Signer'], fields: [{ ...field, role: 'Signer' }] })).id as string;
  const envelope = await call('POST', '/sign/envelopes', { title: `${marker} envelope`, document, recipients: [{ name: `${marker} signer`, email: `signer@${marker}.test`, fields: [field] }] });
  const sent = await call('POST', `/sign/envelopes/${envelope.id}/send`, {});
  const recipient = sent.recipients[0];
  return { sign_template: template, sign_envelope: envelope.id, sign_recipient: recipient.id, sign_token: String(recipient.signing_url).split('#')[1]! };
}
