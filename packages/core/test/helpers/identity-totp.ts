import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30 s) on node:crypto alone: an implementation independent of otplib. */
export function rfc6238(key: Buffer, atMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const binary = ((hmac[offset] & 0x7f) << 24) | (hmac[offset + 1] << 16) | (hmac[offset + 2] << 8) | hmac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

let oathtool: boolean | undefined;

/** True when Debian's `oathtool` is installed. */
export function hasOathtool(): boolean {
  if (oathtool === undefined) {
    try {
      execFileSync('oathtool', ['--version'], { stdio: 'ignore' });
      oathtool = true;
    } catch {
      oathtool = false;
    }
  }
  return oathtool;
}

/**
 * The TOTP code of a base32 secret at an instant, from an implementation independent of the
 * server's: `oathtool` when installed, else the node:crypto RFC 6238 implementation above.
 */
export function independentTotp(secret: string, atMs = Date.now()): string {
  if (hasOathtool()) return execFileSync('oathtool', ['--totp', '-b', secret, '-N', new Date(atMs).toISOString()]).toString().trim();
  return rfc6238(base32Decode(secret), atMs);
}

/** The same, always from the node:crypto implementation. */
export function nodeTotp(secret: string, atMs = Date.now()): string {
  return rfc6238(base32Decode(secret), atMs);
}
