import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const run = promisify(execFile);

/** A small PDF of `pages` pages with a line of text on each. */
export async function makePdf(text: string, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index++) doc.addPage([595, 842]).drawText(`${text} (page ${index + 1})`, { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

/** Runs a poppler tool (pdfsig, pdftotext) on bytes; answers its output (stdout and stderr) and exit code. */
export async function poppler(tool: 'pdfsig' | 'pdftotext', bytes: Buffer, args: string[] = []): Promise<{ code: number; out: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sign-test-'));
  const file = path.join(dir, 'file.pdf');
  await writeFile(file, bytes);
  try {
    const result = await run(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])]);
    return { code: 0, out: result.stdout + result.stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The six-digit code of the last code mail to `email`. */
export function codeIn(mails: Array<{ to: string[]; subject: string; text: string }>, email: string): string {
  const mail = mails.filter((one) => one.to.includes(email) && one.subject.startsWith('Your code')).pop();
  if (!mail) throw new Error(`no code mail to ${email}`);
  return /Your code: (\d{6})/.exec(mail.text)![1];
}

/** The token of a signing link. */
export const tokenOf = (url: string): string => url.split('#')[1];

/** A 1x1 PNG, as a drawn signature's data URL. */
export const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
