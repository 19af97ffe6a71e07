/**
 * A test certificate authority made with node-forge: a root, an intermediate it signs, and leaves
 * the intermediate signs; and PKCS#12 files built from them, as an organisation's CA would hand
 * its signer.
 */
import { createHash } from 'node:crypto';
import forge from 'node-forge';

export type Issued = { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey };

type Usage = { digitalSignature?: boolean; nonRepudiation?: boolean; keyEncipherment?: boolean; keyCertSign?: boolean; cRLSign?: boolean };

let serial = 0x1000;

/** A certificate for `cn` (O=Acme Corp), signed by `issuer` (itself when absent), valid between the two instants. */
export function issue(cn: string, options: { issuer?: Issued; ca?: boolean; usage?: Usage; from?: Date; to?: Date } = {}): Issued {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = (serial++).toString(16);
  cert.validity.notBefore = options.from ?? new Date('2026-01-01T00:00:00.000Z');
  cert.validity.notAfter = options.to ?? new Date('2028-01-01T00:00:00.000Z');
  const subject = [{ name: 'commonName', value: cn }, { name: 'organizationName', value: 'Acme Corp' }];
  cert.setSubject(subject);
  cert.setIssuer(options.issuer ? options.issuer.cert.subject.attributes : subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: options.ca ?? false, critical: true },
    { name: 'keyUsage', critical: true, ...(options.usage ?? (options.ca ? { keyCertSign: true, cRLSign: true } : { digitalSignature: true, nonRepudiation: true })) },
  ]);
  cert.sign(options.issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey };
}

/** Root → intermediate → a leaf allowed to sign. */
export function testCa() {
  const root = issue('Acme Test Root CA', { ca: true });
  const intermediate = issue('Acme Test Intermediate CA', { ca: true, issuer: root });
  const leaf = issue('Acme Signing Leaf', { issuer: intermediate });
  return { root, intermediate, leaf };
}

/** A PKCS#12 file (base64) holding the key (or none) and the certificates, as the CA would export it. */
export function p12(key: forge.pki.rsa.PrivateKey | null, certs: forge.pki.Certificate[], passphrase: string): string {
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certs, passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary').toString('base64');
}

/** SHA-256 of a certificate's DER, lower-case hex (its fingerprint). */
export const fingerprint = (cert: forge.pki.Certificate): string => createHash('sha256').update(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary')).digest('hex');

/** The common names of the certificates embedded in a signed PDF's (first) PKCS#7 signature, in their order. */
export function embeddedCertificates(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const start = text.indexOf('<', text.indexOf('/Contents', text.indexOf('/ByteRange')));
  const hex = text.slice(start + 1, text.indexOf('>', start));
  // The placeholder pads the signature with zeros: read the DER and ignore what follows (node-forge takes options its types do not name).
  const fromDer = forge.asn1.fromDer as unknown as (bytes: string, options: { parseAllBytes: boolean }) => forge.asn1.Asn1;
  const asn1 = fromDer(Buffer.from(hex, 'hex').toString('binary'), { parseAllBytes: false });
  const message = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData;
  return message.certificates.map((cert) => String(cert.subject.getField('CN').value));
}
