import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Domain, RecordCheck } from '../models/index.js';
import type { DnsResolver, MailOptions } from '../options.js';

/** One DNS record a domain's owner publishes. */
export interface DnsRecord {
  purpose: 'ownership' | 'mx' | 'spf' | 'dkim' | 'dmarc';
  type: 'MX' | 'TXT';
  name: string;
  value: string;
}

/** A fresh 2048-bit RSA key pair: the public key as DKIM's `p=` (base64 DER), the private key as PEM. */
export async function dkimKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: (publicKey as unknown as Buffer).toString('base64'), privateKey: privateKey as unknown as string };
}

/** The DKIM TXT record's value for a public key. */
export function dkimValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

/** Where a domain's ownership record is published. */
export const OWNERSHIP_PREFIX = '_wpk-verify';

/** The ownership record's value for a domain's token. */
export function ownershipValue(token: string): string {
  return `wpk-verification=${token}`;
}

/**
 * The five records a domain needs: the ownership record (`_wpk-verify.<domain>` TXT carrying this
 * workspace's token for the domain), MX to the listener, SPF, DKIM (the domain's selector), DMARC.
 */
export function dnsRecords(domain: Pick<Domain, 'name' | 'dkim_selector' | 'dkim_public_key' | 'verification_token'>, options: Pick<MailOptions, 'mxHost' | 'spfInclude'>, dmarcPolicy: string): DnsRecord[] {
  const spf = ['v=spf1', 'mx', ...(options.spfInclude ? [options.spfInclude] : []), '-all'].join(' ');
  return [
    { purpose: 'ownership', type: 'TXT', name: `${OWNERSHIP_PREFIX}.${domain.name}`, value: ownershipValue(domain.verification_token) },
    { purpose: 'mx', type: 'MX', name: domain.name, value: `10 ${options.mxHost}.` },
    { purpose: 'spf', type: 'TXT', name: domain.name, value: spf },
    { purpose: 'dkim', type: 'TXT', name: `${domain.dkim_selector}._domainkey.${domain.name}`, value: dkimValue(domain.dkim_public_key) },
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${domain.name}`, value: `v=DMARC1; p=${dmarcPolicy}; rua=mailto:postmaster@${domain.name}` },
  ];
}

// The name or the record type does not exist: an answer. The others: no answer was had.
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);
const UNANSWERED = new Set(['ESERVFAIL', 'EREFUSED', 'ETIMEOUT', 'ECONNREFUSED', 'ECANCELLED', 'EBADRESP', 'ECONNRESET']);

async function lookUpAnswer<T>(call: () => Promise<T[]>): Promise<{ records: T[]; answered: boolean }> {
  try {
    return { records: await call(), answered: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (ABSENT.has(code)) return { records: [], answered: true };
    if (UNANSWERED.has(code)) return { records: [], answered: false };
    throw error;
  }
}

async function lookUp<T>(call: () => Promise<T[]>): Promise<T[]> {
  return (await lookUpAnswer(call)).records;
}

function tags(value: string): Map<string, string> {
  return new Map(
    value
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, '')] as [string, string];
      }),
  );
}

/**
 * Looks the domain's records up and judges each: the ownership record carries this workspace's
 * token (`unanswered` when the DNS gave no answer at all: a timeout, a refusal, a server
 * failure); MX names the listener's host; an SPF record allows `mx` (and the relay's include when
 * one is configured); the DKIM record carries the domain's public key; a DMARC record exists.
 */
export async function checkRecords(resolver: DnsResolver, domain: Pick<Domain, 'name' | 'dkim_selector' | 'dkim_public_key' | 'verification_token'>, options: Pick<MailOptions, 'mxHost' | 'spfInclude'>): Promise<Record<DnsRecord['purpose'], RecordCheck>> {
  const expected = ownershipValue(domain.verification_token);
  const ownership = await lookUpAnswer(() => resolver.resolveTxt(`${OWNERSHIP_PREFIX}.${domain.name}`));
  const owned = ownership.records.map((chunks) => chunks.join('').trim()).filter((value) => value.startsWith('wpk-verification='));
  const host = options.mxHost.toLowerCase().replace(/\.$/, '');
  const mx = (await lookUp(() => resolver.resolveMx(domain.name))).map((record) => `${record.priority} ${record.exchange}`);
  const txt = (await lookUp(() => resolver.resolveTxt(domain.name))).map((chunks) => chunks.join(''));
  const spf = txt.filter((value) => /^v=spf1(\s|$)/i.test(value));
  const dkim = (await lookUp(() => resolver.resolveTxt(`${domain.dkim_selector}._domainkey.${domain.name}`))).map((chunks) => chunks.join(''));
  const dmarc = (await lookUp(() => resolver.resolveTxt(`_dmarc.${domain.name}`))).map((chunks) => chunks.join('')).filter((value) => /^v=DMARC1(;|\s|$)/i.test(value));
  const spfTerms = (value: string) => value.toLowerCase().split(/\s+/);
  return {
    ownership: { ok: owned.includes(expected), found: owned, ...(ownership.answered ? {} : { unanswered: true }) },
    mx: { ok: mx.some((record) => record.split(' ')[1]!.toLowerCase().replace(/\.$/, '') === host), found: mx },
    spf: { ok: spf.length === 1 && spfTerms(spf[0]!).includes('mx') && (!options.spfInclude || spfTerms(spf[0]!).includes(options.spfInclude.toLowerCase())), found: spf },
    dkim: { ok: dkim.some((value) => tags(value).get('p') === domain.dkim_public_key), found: dkim },
    dmarc: { ok: dmarc.length === 1, found: dmarc },
  };
}
