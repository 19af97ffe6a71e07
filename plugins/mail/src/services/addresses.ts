import { InvalidError } from '@wpk/sdk';

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** A domain name in lower case, or 400 naming `field`. */
export function domainName(text: string, field = 'name'): string {
  const name = text.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(name)) throw new InvalidError(`${field} must be a domain name such as example.com`);
  return name;
}

/** A mailbox's local part in lower case (1-64 characters of RFC 5322's dot-atom), or 400. */
export function localPart(text: string, field = 'local_part'): string {
  const part = text.trim().toLowerCase();
  if (part.length === 0 || part.length > 64 || !LOCAL_PART.test(part)) throw new InvalidError(`${field} must be 1-64 letters, digits or . _ - + (no leading, trailing or double dot)`);
  return part;
}

/** Splits `user@example.com` into its lower-cased parts; null for anything else. */
export function splitAddress(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  return { local: address.slice(0, at).toLowerCase(), domain: address.slice(at + 1).toLowerCase().replace(/\.$/, '') };
}
