import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';

/** The VAPID key pair the platform signs web-push requests with (base64url, as browsers take them). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The file under the data directory that keeps the generated pair. */
export const VAPID_KEYS_FILE = 'vapid-keys.json';

const isPair = (value: unknown): value is VapidKeys =>
  typeof value === 'object' && value !== null && typeof (value as VapidKeys).publicKey === 'string' && typeof (value as VapidKeys).privateKey === 'string';

/**
 * The VAPID keys: the configured pair (`VAPID_PUBLIC_KEY` and `VAPID_PRIVATE_KEY`, required when
 * several processes share a database without sharing a data directory), otherwise a pair
 * generated once and kept in `{dataDir}/vapid-keys.json` (mode 0600). Browsers subscribed with
 * the public key, so it must never change under them.
 */
export async function loadVapidKeys(configured: Partial<VapidKeys> | undefined, dataDir: string): Promise<VapidKeys> {
  if (configured?.publicKey && configured.privateKey) return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  const read = async (): Promise<VapidKeys | null> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (text.trim() === '') return null;
    const parsed: unknown = JSON.parse(text);
    if (!isPair(parsed)) throw new Error(`${file} does not hold a VAPID key pair ({"publicKey", "privateKey"}): delete it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`);
    return parsed;
  };
  const existing = await read();
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const generated = webpush.generateVAPIDKeys();
  try {
    await writeFile(file, `${JSON.stringify({ publicKey: generated.publicKey, privateKey: generated.privateKey })}\n`, { flag: 'wx', mode: 0o600 });
    return { publicKey: generated.publicKey, privateKey: generated.privateKey };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process wrote it a moment ago and may still be writing.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const keys = await read();
    if (keys) return keys;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${file} is empty: delete it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`);
}
