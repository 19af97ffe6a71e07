import { createHash } from 'node:crypto';
import forge from 'node-forge';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

/** pdf-lib loads on the first document Sign reads or writes, not with the app (most processes never open one). */
const pdfLib = () => import('pdf-lib');

/** SHA-256 of bytes, as lower-case hex. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A field placed on a page, in PDF points from the page's bottom-left corner. */
export type PlacedField = { type: 'signature' | 'initials' | 'date' | 'text' | 'checkbox'; page: number; x: number; y: number; width: number; height: number; value: string | boolean | null };

/** A signature as drawn (a PNG data URL), typed (a name) or uploaded (a PNG or JPEG data URL). */
export type SignatureMark = { kind: 'draw' | 'type' | 'upload'; text: string | null; image: string | null };

/** One line of the audit certificate. */
export type AuditLine = { at: Date; action: string; who: string; ip: string | null; user_agent: string | null };

/** Loads a PDF, or null when the bytes are not one pdf-lib can open. */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocument | null> {
  const { PDFDocument } = await pdfLib();
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch {
    return null;
  }
}

/** Text that the standard fonts (WinAnsi) can draw: anything else becomes '?'. */
const drawable = (text: string): string => [...text].map((char) => (char.charCodeAt(0) >= 32 && char.charCodeAt(0) <= 255 ? char : '?')).join('');

function fitText(font: PDFFont, text: string, width: number, size: number): number {
  let fitted = size;
  while (fitted > 5 && font.widthOfTextAtSize(text, fitted) > width) fitted -= 0.5;
  return fitted;
}

async function drawMark(doc: PDFDocument, page: PDFPage, field: PlacedField, mark: SignatureMark | null, font: PDFFont, script: PDFFont) {
  const { rgb } = await pdfLib();
  if (mark?.image) {
    const [, kind, data] = /^data:image\/(png|jpeg);base64,(.*)$/.exec(mark.image) ?? [];
    if (data) {
      const bytes = Buffer.from(data, 'base64');
      const image = kind === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
      const scale = Math.min(field.width / image.width, field.height / image.height);
      page.drawImage(image, { x: field.x, y: field.y, width: image.width * scale, height: image.height * scale });
      return;
    }
  }
  const text = drawable(String(field.value ?? mark?.text ?? ''));
  page.drawText(text, { x: field.x + 2, y: field.y + 4, size: fitText(script, text, field.width - 4, Math.min(field.height - 4, 24)), font: script, color: rgb(0.05, 0.1, 0.4) });
  void font;
}

/**
 * Flattens the signers' fields into the document: each value drawn where its field was placed (a
 * signature or initials as the signer's mark, a checkbox as a cross, text and dates as text).
 */
export async function flatten(doc: PDFDocument, fields: Array<PlacedField & { mark: SignatureMark | null }>): Promise<void> {
  const { rgb, StandardFonts } = await pdfLib();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const script = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const pages = doc.getPages();
  for (const field of fields) {
    const page = pages[Math.min(field.page, pages.length) - 1];
    if (!page) continue;
    if (field.type === 'checkbox') {
      page.drawRectangle({ x: field.x, y: field.y, width: Math.min(field.width, field.height), height: Math.min(field.width, field.height), borderColor: rgb(0, 0, 0), borderWidth: 1 });
      if (field.value === true || field.value === 'true') page.drawText('X', { x: field.x + 2, y: field.y + 2, size: Math.min(field.width, field.height) - 3, font });
    } else if (field.type === 'signature' || field.type === 'initials') {
      await drawMark(doc, page, field, field.mark, font, script);
    } else {
      const text = drawable(String(field.value ?? ''));
      page.drawText(text, { x: field.x + 2, y: field.y + 4, size: fitText(font, text, field.width - 4, Math.min(field.height - 4, 12)), font, color: rgb(0, 0, 0) });
    }
  }
}

/** Appends the audit certificate: the envelope, both hashes, and every step with time, IP and user agent. */
export async function appendCertificate(doc: PDFDocument, input: { envelopeId: string; title: string; originalSha256: string; lines: AuditLine[]; workspace: string }): Promise<void> {
  const { StandardFonts } = await pdfLib();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([595.28, 841.89]);
  let y = 800;
  const write = (text: string, size = 9, face = font) => {
    if (y < 50) {
      page = doc.addPage([595.28, 841.89]);
      y = 800;
    }
    const line = drawable(text);
    page.drawText(line.length > 120 ? `${line.slice(0, 117)}...` : line, { x: 40, y, size, font: face });
    y -= size + 5;
  };
  write('Certificate of completion', 16, bold);
  y -= 6;
  write(`Envelope: ${input.title}`, 10);
  write(`Envelope id: ${input.envelopeId}`);
  write(`Workspace: ${input.workspace}`);
  write(`SHA-256 of the original document: ${input.originalSha256}`);
  write('SHA-256 of the final document: in the verification record (POST /sign/verifications); the file is sealed by the PAdES signature below.');
  y -= 6;
  write('Audit trail', 12, bold);
  for (const line of input.lines) {
    write(`${line.at.toISOString()}  ${line.action}  ${line.who}`);
    write(`    IP ${line.ip ?? '-'}  user agent ${line.user_agent ?? '-'}`, 8);
  }
}

/**
 * A workspace's signing identity: its certificate (a PEM bundle: the signer's certificate first,
 * then the intermediates that chain it to its root, none for the generated one) and its key.
 */
export type SigningIdentity = { certificatePem: string; privateKeyPem: string };

/** Makes a self-signed signing certificate for a workspace (RSA 2048, ten years). */
export function makeIdentity(commonName: string, now: Date): SigningIdentity {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(8))}`;
  cert.validity.notBefore = new Date(now.getTime() - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const attrs = [{ name: 'commonName', value: commonName.slice(0, 64) }, { name: 'organizationName', value: 'Workspace Platform Kit Sign' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, nonRepudiation: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** Every certificate of a PEM bundle, in its order. */
export const certificatesOf = (bundle: string): forge.pki.Certificate[] => forge.pem.decode(bundle).filter((block) => block.type === 'CERTIFICATE').map((block) => forge.pki.certificateFromAsn1(forge.asn1.fromDer(block.body)));

/** A certificate's DER bytes. */
export const derOf = (cert: forge.pki.Certificate): Buffer => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

function p12Of(key: forge.pki.rsa.PrivateKey, certs: forge.pki.Certificate[]): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certs, '', { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/**
 * Adds the signature placeholder, saves, and signs the bytes (PAdES, adbe.pkcs7.detached over the
 * byte range). Every certificate of the identity's bundle goes into the signature (the chain), and
 * the placeholder grows with them.
 */
export async function sealPdf(doc: PDFDocument, identity: SigningIdentity, input: { reason: string; name: string; location: string; signingTime: Date }): Promise<Buffer> {
  const [{ pdflibAddPlaceholder }, { P12Signer }, { SignPdf }] = await Promise.all([import('@signpdf/placeholder-pdf-lib'), import('@signpdf/signer-p12'), import('@signpdf/signpdf')]);
  const certs = certificatesOf(identity.certificatePem);
  const key = forge.pki.privateKeyFromPem(identity.privateKeyPem) as forge.pki.rsa.PrivateKey;
  const signatureLength = Math.max(8192, 4096 + key.n.bitLength() / 4 + certs.reduce((sum, cert) => sum + derOf(cert).length, 0));
  pdflibAddPlaceholder({ pdfDoc: doc, reason: input.reason, contactInfo: '', name: input.name, location: input.location, signingTime: input.signingTime, signatureLength });
  const unsigned = Buffer.from(await doc.save({ useObjectStreams: false }));
  return new SignPdf().sign(unsigned, new P12Signer(p12Of(key, certs)), input.signingTime);
}

/** Whether a data URL holds a PNG or JPEG image pdf-lib can draw (checked when a signer gives it, not at completion). */
export async function drawableImage(dataUrl: string): Promise<boolean> {
  const { PDFDocument } = await pdfLib();
  const [, kind, data] = /^data:image\/(png|jpeg);base64,(.*)$/.exec(dataUrl) ?? [];
  if (!data) return false;
  try {
    const doc = await PDFDocument.create();
    if (kind === 'png') await doc.embedPng(Buffer.from(data, 'base64'));
    else await doc.embedJpg(Buffer.from(data, 'base64'));
    return true;
  } catch {
    return false;
  }
}
