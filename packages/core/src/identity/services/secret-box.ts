import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Encrypts small secrets at rest (TOTP secrets) with AES-256-GCM, and signs values (HMAC-SHA256). */
export class SecretBox {
  private readonly key: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`wpk-secret-box:${secret}`).digest();
    this.macKey = createHash('sha256').update(`wpk-mac:${secret}`).digest();
  }

  /** HMAC-SHA256 of `data` for `purpose` (a purpose's signature is never valid for another), base64url. */
  sign(purpose: string, data: string): string {
    return createHmac('sha256', this.macKey).update(`${purpose}\n${data}`).digest('base64url');
  }

  /** True when `signature` is `sign(purpose, data)` (compared in constant time). */
  verify(purpose: string, data: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, data));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The secret key: `WPK_SECRET_KEY` when set (required when several processes share a database),
 * otherwise a random key generated once under the data directory (`secret-key`, mode 0600).
 */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret-key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process may have created the file a moment ago and still be writing it.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const key = (await readFile(file, 'utf8')).trim();
    if (key) return key;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${file} is empty: delete it or set WPK_SECRET_KEY`);
}
