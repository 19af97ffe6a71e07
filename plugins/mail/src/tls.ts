import fs from 'node:fs/promises';
import path from 'node:path';

/** The listener's certificate for STARTTLS: PEM texts given, or generated once into a directory. */
export type TlsSource = { key: string; cert: string } | { generateInto: string };

/**
 * The key and certificate STARTTLS offers. `generateInto` keeps a self-signed certificate for
 * the listener's host name (valid ten years) in `mail-tls-key.pem` and `mail-tls-cert.pem`
 * there, made on first start and read back after, so every start offers the same one.
 */
export async function loadTls(source: TlsSource, hostname: string): Promise<{ key: string; cert: string }> {
  if ('key' in source) return source;
  const keyFile = path.join(source.generateInto, 'mail-tls-key.pem');
  const certFile = path.join(source.generateInto, 'mail-tls-cert.pem');
  try {
    return { key: await fs.readFile(keyFile, 'utf8'), cert: await fs.readFile(certFile, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const now = new Date();
  // selfsigned loads only when a certificate must be made.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: hostname }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 10 * 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: hostname }] },
    ],
  });
  await fs.mkdir(source.generateInto, { recursive: true });
  await fs.writeFile(keyFile, pems.private, { mode: 0o600 });
  await fs.writeFile(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert };
}
