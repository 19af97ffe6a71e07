import { ConflictError, InvalidError } from '@wpk/sdk';
import forge from 'node-forge';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Identity } from '../models/index.js';
import { certificatesOf, derOf, makeIdentity, sha256, type SigningIdentity } from './pdf.js';

/** The identities' names: the certificate the app generated, and the one an admin uploaded (it wins while it exists). */
const GENERATED = 'default';
const UPLOADED = 'uploaded';

/** The largest PKCS#12 file taken, in bytes (a signer's certificate, its chain and key are a few kilobytes). */
export const MAX_P12_BYTES = 100_000;

/** How the certificate in use reads: never its key. */
export interface CertificateView {
  source: 'generated' | 'uploaded';
  subject: string;
  common_name: string | null;
  issuer: string;
  serial: string;
  valid_from: Date;
  valid_to: Date;
  fingerprint_sha256: string;
  chain_length: number;
  /** When this certificate was stored: made, or uploaded. */
  stored_at: Date;
}

const dn = (attributes: forge.pki.CertificateField[]): string => attributes.map((one) => `${one.shortName ?? one.name ?? one.type}=${String(one.value)}`).join(', ');
const commonName = (cert: forge.pki.Certificate): string | null => {
  const value = cert.subject.getField('CN')?.value;
  return value === undefined ? null : String(value);
};

/** What the certificate at the head of a bundle is. */
function describe(bundle: string, source: CertificateView['source'], storedAt: Date): CertificateView {
  const certs = certificatesOf(bundle);
  const leaf = certs[0];
  return {
    source,
    subject: dn(leaf.subject.attributes),
    common_name: commonName(leaf),
    issuer: dn(leaf.issuer.attributes),
    serial: leaf.serialNumber.toLowerCase(),
    valid_from: leaf.validity.notBefore,
    valid_to: leaf.validity.notAfter,
    fingerprint_sha256: sha256(derOf(leaf)),
    chain_length: certs.length,
    stored_at: storedAt,
  };
}

/** The workspace's generated identity, made on first use (its key sealed with the platform's secret key). Call under the `identity` lock. */
async function generated(ctx: AnyCtx): Promise<Identity> {
  const row = await ctx.db.identities.findOne({ where: { name: GENERATED } });
  if (row) return row;
  const made = makeIdentity(`${ctx.workspace.name} (${ctx.workspace.subdomain})`, ctx.now());
  return ctx.db.identities.create({ name: GENERATED, certificate_pem: made.certificatePem, key_sealed: ctx.secrets.seal(made.privateKeyPem) });
}

/** The identity the workspace signs with now: the uploaded one while there is one, else the generated one (made on first use). */
async function inUse(ctx: AnyCtx): Promise<Identity> {
  await ctx.lock('identity');
  return (await ctx.db.identities.findOne({ where: { name: UPLOADED } })) ?? generated(ctx);
}

const viewOf = (row: Identity): CertificateView => describe(row.certificate_pem, row.name === UPLOADED ? 'uploaded' : 'generated', row.updated_at ?? row.created_at);

/** The signing identity completions use: the certificate bundle and the key, opened. */
export async function identityOf(ctx: AnyCtx): Promise<SigningIdentity> {
  const row = await inUse(ctx);
  return { certificatePem: row.certificate_pem, privateKeyPem: ctx.secrets.open(row.key_sealed) };
}

/** The certificate in use, as `GET /sign/certificate` shows it. */
export async function currentCertificate(ctx: Ctx): Promise<CertificateView> {
  return viewOf(await inUse(ctx));
}

const refuse = (field: 'p12' | 'passphrase', message: string) => new InvalidError(message, { field });

/** The outer shape of a PKCS#12 file (PFX): version 3, then the authenticated safe as PKCS#7 data or signed data. */
function isPfx(asn1: forge.asn1.Asn1): boolean {
  const [version, authSafe] = Array.isArray(asn1.value) ? asn1.value : [];
  if (!version || !authSafe || version.type !== forge.asn1.Type.INTEGER || typeof version.value !== 'string') return false;
  if (forge.util.createBuffer(version.value).getInt(version.value.length * 8) !== 3) return false;
  const [type] = Array.isArray(authSafe.value) ? authSafe.value : [];
  if (!type || type.type !== forge.asn1.Type.OID || typeof type.value !== 'string') return false;
  const oid = forge.asn1.derToOid(type.value);
  return oid === forge.pki.oids.data || oid === forge.pki.oids.signedData;
}

const sameKey = (key: forge.pki.rsa.PrivateKey, cert: forge.pki.Certificate): boolean => {
  const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
  return Boolean(publicKey.n && publicKey.e) && key.n.compareTo(publicKey.n) === 0 && key.e.compareTo(publicKey.e) === 0;
};

const issued = (issuer: forge.pki.Certificate, child: forge.pki.Certificate): boolean => {
  try {
    return issuer.verify(child);
  } catch {
    return false;
  }
};

/** The leaf, then each certificate of the file that issued the one before, up to a self-signed root or the file's last link. */
function chainOf(leaf: forge.pki.Certificate, certs: forge.pki.Certificate[]): forge.pki.Certificate[] {
  const chain = [leaf];
  for (let current = leaf; chain.length < 10;) {
    if (issued(current, current)) break;
    const issuer = certs.find((cert) => !chain.includes(cert) && issued(cert, current));
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

/** Reads an uploaded PKCS#12 file: the key and the chain, or a refusal naming the field (the passphrase never in it). */
function readP12(p12: string, passphrase: string, now: Date): { key: forge.pki.rsa.PrivateKey; chain: forge.pki.Certificate[] } {
  const text = p12.replace(/\s+/g, '');
  if (!text || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw refuse('p12', 'p12 is not base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_P12_BYTES) throw refuse('p12', `p12 is larger than ${MAX_P12_BYTES} bytes`);
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(bytes.toString('binary'));
  } catch {
    throw refuse('p12', 'p12 is not a PKCS#12 file');
  }
  if (!isPfx(asn1)) throw refuse('p12', 'p12 is not a PKCS#12 file');
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    pfx = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  } catch (error) {
    if (/password/i.test((error as Error).message)) throw refuse('passphrase', 'passphrase does not open the PKCS#12 file');
    throw refuse('p12', 'p12 is not a PKCS#12 file this server can read (its contents cannot be decrypted)');
  }
  const keyBags = [...(pfx.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []), ...(pfx.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? [])];
  if (keyBags.length === 0) throw refuse('p12', 'p12 holds no private key');
  if (keyBags.length > 1) throw refuse('p12', `p12 holds ${keyBags.length} private keys: export the signer's alone`);
  const key = keyBags[0].key as forge.pki.rsa.PrivateKey | undefined;
  if (!key?.n) throw refuse('p12', 'p12 holds a private key that is not RSA: only RSA keys can sign here');
  const certs = (pfx.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((bag) => bag.cert).filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const leaf = certs.find((cert) => sameKey(key, cert));
  if (!leaf) throw refuse('p12', 'p12 holds no certificate matching its private key');
  if (now < leaf.validity.notBefore) throw refuse('p12', `p12's certificate is not valid before ${leaf.validity.notBefore.toISOString()}`);
  if (now > leaf.validity.notAfter) throw refuse('p12', `p12's certificate expired on ${leaf.validity.notAfter.toISOString()}`);
  const usage = leaf.getExtension('keyUsage') as { digitalSignature?: boolean; nonRepudiation?: boolean } | undefined;
  if (usage && !usage.digitalSignature && !usage.nonRepudiation) throw refuse('p12', "p12's certificate's key usage does not allow digital signatures");
  return { key, chain: chainOf(leaf, certs) };
}

const replacedEvent = (ctx: Ctx, view: CertificateView) =>
  ctx.events.stage('core.sign.certificate.replaced', {
    source: view.source, subject: view.subject, issuer: view.issuer, serial: view.serial, fingerprint_sha256: view.fingerprint_sha256,
    valid_from: view.valid_from.toISOString(), valid_to: view.valid_to.toISOString(), chain_length: view.chain_length, by: ctx.member.mrn,
  });

/**
 * Replaces the workspace's signing certificate with an uploaded PKCS#12 file. Only its key (sealed)
 * and its certificate chain are kept; the file and its passphrase are not.
 */
export async function uploadCertificate(ctx: Ctx, input: { p12: string; passphrase: string }): Promise<CertificateView> {
  const { key, chain } = readP12(input.p12, input.passphrase, ctx.now());
  const bundle = chain.map((cert) => forge.pki.certificateToPem(cert)).join('');
  await ctx.lock('identity');
  const fields = { certificate_pem: bundle, key_sealed: ctx.secrets.seal(forge.pki.privateKeyToPem(key)) };
  const existing = await ctx.db.identities.findOne({ where: { name: UPLOADED } });
  if (existing) await ctx.db.identities.update(fields, { where: { id: existing.id } });
  else await ctx.db.identities.create({ name: UPLOADED, ...fields });
  const view = viewOf((await ctx.db.identities.findOne({ where: { name: UPLOADED } }))!);
  replacedEvent(ctx, view);
  return view;
}

/** Goes back to the generated certificate (the one the workspace had before, or a new one): the uploaded key is deleted. */
export async function resetCertificate(ctx: Ctx): Promise<CertificateView> {
  await ctx.lock('identity');
  const uploaded = await ctx.db.identities.findOne({ where: { name: UPLOADED } });
  if (!uploaded) throw new ConflictError('The workspace already signs with its generated certificate');
  await ctx.db.identities.destroy({ where: { id: uploaded.id } });
  const view = viewOf(await generated(ctx));
  replacedEvent(ctx, view);
  return view;
}
