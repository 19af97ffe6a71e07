import { APP_HEADER, SIGNATURE_HEADER, signBody } from './signature.js';

/** One event sent to the broker's ingress by an app that runs outside the platform. */
export interface IngressEvent {
  /** The workspace the event belongs to. */
  workspace_id: string;
  /** An action the app's manifest declares. */
  action: string;
  /** The payload (nulls are removed, then it is validated against the declared schema). */
  payload: Record<string, unknown>;
  /** Free-form metadata. */
  metadata?: Record<string, unknown>;
  /** The broker rejects a second event with the same key and the same payload. */
  dedupe_key?: string;
  /** Deliver no earlier than this instant (ISO 8601). */
  deliver_at?: string;
}

/** Options of `publishEvents`. */
export interface PublishOptions {
  /** The platform's base URL (`https://platform.example.com`). */
  brokerUrl: string;
  /** The app's slug (`ext.acme.hello`). */
  app: string;
  /** The app's broker secret (`wpk events app-secret ext.acme.hello` prints it). */
  secret: string;
}

/**
 * Sends events to the broker's ingress (`POST /_broker/events`), signed with the app's secret.
 * Resolves with the ids of the accepted events; rejects with the broker's error message.
 */
export async function publishEvents(options: PublishOptions, events: IngressEvent[]): Promise<string[]> {
  const body = JSON.stringify({ events });
  const response = await fetch(`${options.brokerUrl.replace(/\/+$/, '')}/_broker/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [APP_HEADER]: options.app, [SIGNATURE_HEADER]: signBody(body, options.secret) },
    body,
  });
  const answer = (await response.json().catch(() => ({}))) as { ids?: string[]; error?: string };
  if (response.status !== 200) throw new Error(`broker answered ${response.status}: ${answer.error ?? 'no message'}`);
  return answer.ids ?? [];
}
