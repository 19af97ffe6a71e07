import type { AddressObject, ParsedMail } from 'mailparser';
import type { Address } from './models/index.js';
import type { IncomingMessage } from './services/inbound.js';

function addresses(value: AddressObject | AddressObject[] | undefined): Address[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((entry) => entry.value).flatMap((entry) => (entry.address ? [{ address: entry.address.toLowerCase(), ...(entry.name ? { name: entry.name } : {}) }] : []));
}

function incoming(parsed: ParsedMail, sizeBytes: number): Omit<IncomingMessage, 'dkim' | 'spf' | 'dmarc'> {
  const from = addresses(parsed.from)[0] ?? { address: '' };
  return {
    messageId: parsed.messageId ?? '',
    inReplyTo: parsed.inReplyTo ?? '',
    from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    date: parsed.date ?? null,
    sizeBytes,
    files: parsed.attachments.filter((file) => file.contentDisposition !== 'inline' || !file.cid).map((file) => ({ filename: file.filename ?? '', contentType: file.contentType, content: file.content })),
  };
}

/** Parses a raw RFC 5322 message (`mailparser`) into what the app stores; the verdicts are the caller's. */
export async function parseMessage(raw: Buffer, verdicts: Pick<IncomingMessage, 'dkim' | 'spf' | 'dmarc'> = { dkim: 'none', spf: 'none', dmarc: 'none' }): Promise<IncomingMessage> {
  // mailparser loads with the first message read, not with the app.
  const { simpleParser } = await import('mailparser');
  return { ...incoming(await simpleParser(raw), raw.length), ...verdicts };
}
