import { createSign } from 'node:crypto';
import got from 'got';
import type { PushMessage } from './push-payload.js';

/** The phone platforms a device registers for (`POST /push-devices`). */
export const PHONE_PLATFORMS = ['ios', 'android'] as const;
export type PhonePlatform = (typeof PHONE_PLATFORMS)[number];

/** A phone to push to. */
export interface PhoneDevice {
  token: string;
  platform: PhonePlatform;
}

/** What the provider said about one push: `unregistered` means the token is gone (the device row is removed). */
export type PhonePushOutcome = { status: 'sent'; id: string | null } | { status: 'unregistered' } | { status: 'failed'; error: string };

/**
 * A phone-push provider (FCM, APNs, or the local one for development and tests). The platform
 * hands it the device and the message; it never sees anything else.
 */
export interface PhonePushProvider {
  readonly name: string;
  send(device: PhoneDevice, message: PushMessage): Promise<PhonePushOutcome>;
}

/** The message as the phone shows it: title, body, and the data the app opens it with. */
function visible(message: PushMessage) {
  return { title: message.title, body: message.body };
}

function data(message: PushMessage): Record<string, string> {
  return { id: message.id, kind: message.kind, channel: message.channel, link: message.link ?? '', workspace: message.workspace };
}

/**
 * Development and tests: keeps every push in memory (`sent`), in order, and answers
 * `unregistered` for the tokens `unregister` was given (a phone that uninstalled the app).
 */
export class LocalPhonePushProvider implements PhonePushProvider {
  readonly name = 'local';
  readonly sent: Array<{ device: PhoneDevice; message: PushMessage }> = [];
  private readonly gone = new Set<string>();

  unregister(token: string): void {
    this.gone.add(token);
  }

  async send(device: PhoneDevice, message: PushMessage): Promise<PhonePushOutcome> {
    if (this.gone.has(device.token)) return { status: 'unregistered' };
    this.sent.push({ device: { ...device }, message: { ...message } });
    return { status: 'sent', id: `local-${this.sent.length}` };
  }
}

/** A Google service account (the JSON file the Firebase console gives), the fields FCM needs. */
export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri?: string;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * Firebase Cloud Messaging, HTTP v1 API (`POST /v1/projects/{project}/messages:send`), which
 * reaches Android and, through Firebase's APNs link, iOS. The OAuth2 access token comes from the
 * service account (a signed RS256 JWT exchanged at its `token_uri`) and is reused until it nears
 * expiry. `UNREGISTERED` (404) and `INVALID_ARGUMENT` on the token mean the device is gone.
 */
export class FcmPhonePushProvider implements PhonePushProvider {
  readonly name = 'fcm';
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly account: FcmServiceAccount,
    private readonly options: { apiBase?: string; now?: () => number } = {},
  ) {}

  private async accessToken(): Promise<string> {
    const now = this.options.now?.() ?? Date.now();
    if (this.token && this.token.expiresAt - 60_000 > now) return this.token.value;
    const tokenUri = this.account.token_uri ?? 'https://oauth2.googleapis.com/token';
    const issuedAt = Math.floor(now / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const claims = base64url(JSON.stringify({ iss: this.account.client_email, scope: 'https://www.googleapis.com/auth/firebase.messaging', aud: tokenUri, iat: issuedAt, exp: issuedAt + 3600 }));
    const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(this.account.private_key).toString('base64url');
    const answer = await got
      .post(tokenUri, { form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${header}.${claims}.${signature}` }, timeout: { request: 10_000 }, retry: { limit: 0 } })
      .json<{ access_token: string; expires_in: number }>();
    this.token = { value: answer.access_token, expiresAt: now + answer.expires_in * 1000 };
    return answer.access_token;
  }

  async send(device: PhoneDevice, message: PushMessage): Promise<PhonePushOutcome> {
    try {
      const base = this.options.apiBase ?? 'https://fcm.googleapis.com';
      const response = await got.post(`${base}/v1/projects/${encodeURIComponent(this.account.project_id)}/messages:send`, {
        headers: { authorization: `Bearer ${await this.accessToken()}` },
        json: {
          message: {
            token: device.token,
            notification: visible(message),
            data: data(message),
            android: { notification: { sound: message.sound === 'none' ? undefined : message.sound } },
            apns: { payload: { aps: { sound: message.sound === 'none' ? undefined : message.sound } } },
          },
        },
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: 10_000 },
      });
      const body = (() => {
        try {
          return JSON.parse(String(response.body)) as { name?: string; error?: { status?: string; message?: string } };
        } catch {
          return {};
        }
      })();
      if (response.statusCode === 200) return { status: 'sent', id: body.name ?? null };
      if (response.statusCode === 404 || body.error?.status === 'UNREGISTERED') return { status: 'unregistered' };
      return { status: 'failed', error: `FCM ${response.statusCode}: ${body.error?.message ?? ''}`.trim() };
    } catch (error) {
      return { status: 'failed', error: (error as Error).message };
    }
  }
}
