/**
 * A file's bytes to a signed upload link, with progress, and again after a transient failure. Apart
 * from the `<wpk-upload>` element so that a page that only sends files (a call's recording) does not
 * carry the element and its Web Awesome parts.
 */

/** Where one file's bytes go: a URL (a signed upload link), its method and headers. */
export interface UploadTarget {
  url: string;
  method?: 'PUT' | 'POST';
  headers?: Record<string, string>;
}

/** What one attempt to send a file got back: its status (0: no answer, the connection failed), its text, its Retry-After. */
export interface UploadAnswer {
  status: number;
  text: string;
  retryAfter?: string | null;
}

/** How many times a file is sent (or a shell GET asked) again after a transient failure (so at most three attempts). */
export const UPLOAD_RETRIES = 2;

/** The platform's `{"error"}` message of an answer, or null when its body is not one. */
function errorOf(answer: UploadAnswer): string | null {
  try {
    const error = (JSON.parse(answer.text) as { error?: unknown }).error;
    return typeof error === 'string' ? error : null;
  } catch {
    return null;
  }
}

/**
 * Whether the same bytes are worth sending again after this answer, and after how long (ms):
 * when no answer came (the connection failed), when the server asked for a later try (408, 429,
 * 503, Retry-After honoured up to 5 s) or failed (500, 502, 504), and on a 400 that is not the
 * platform's: every refusal of the platform carries a `{"error"}` body, so a bare 400 is the
 * connection's (the server could not read the request off it), not a verdict on the file.
 * A PUT to a signed link is idempotent: a second one writes the same object (the shell's GETs
 * follow the same rule, `shellApi`). Null: do not retry.
 */
export function retryDelay(answer: UploadAnswer, attempt: number, retries = UPLOAD_RETRIES): number | null {
  if (attempt >= retries) return null;
  const transient = answer.status === 0 || [408, 429, 500, 502, 503, 504].includes(answer.status) || (answer.status === 400 && errorOf(answer) === null);
  if (!transient) return null;
  const asked = Number(answer.retryAfter);
  if (answer.retryAfter && Number.isFinite(asked) && asked >= 0) return Math.min(5_000, asked * 1000);
  return 500 * 3 ** attempt;
}

/** The message of a failed upload: the server's `{"error"}`, else what happened. */
export function uploadErrorOf(answer: UploadAnswer): string {
  if (answer.status === 0) return 'The upload was interrupted';
  return errorOf(answer) ?? `Upload failed (${answer.status})`;
}

/** One attempt (XMLHttpRequest: fetch reports no upload progress); resolves with whatever came back. */
function sendOnce(file: Blob, target: UploadTarget, onProgress: (loaded: number, total: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open(target.method ?? 'PUT', target.url);
    for (const [name, value] of Object.entries(target.headers ?? {})) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.total || file.size);
    request.onload = () => resolve({ status: request.status, text: request.responseText, retryAfter: request.getResponseHeader('retry-after') });
    request.onerror = () => resolve({ status: 0, text: '' });
    request.send(file);
  });
}

/**
 * Sends a file with progress, again after a transient failure (`retryDelay`; the progress
 * starts over). Resolves with the response text; rejects with the server's `{"error"}` message on
 * any other status than 2xx, or with what happened to the last attempt.
 */
export async function sendFile(file: Blob, target: UploadTarget, onProgress: (loaded: number, total: number) => void = () => {}): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await sendOnce(file, target, onProgress);
    if (answer.status >= 200 && answer.status < 300) return answer.text;
    const delay = retryDelay(answer, attempt);
    if (delay === null) throw new Error(uploadErrorOf(answer));
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
