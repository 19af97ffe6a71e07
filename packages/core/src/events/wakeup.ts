import pg from 'pg';
import type { Logger } from 'pino';

/** The NOTIFY channel of the event bus; payloads: `outbox`, `deliveries`, `catalog`. */
export const WAKE_CHANNEL = 'wpk_events';

/**
 * A dedicated connection LISTENing on the bus's channel, so a broker wakes the moment another
 * process commits an event or schedules a delivery, instead of waiting for its next poll.
 * Reconnects with a growing delay when the connection drops; after each reconnect it calls
 * `onMessage('reconnected')` so the broker looks for work it may have missed.
 */
export class WakeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;

  constructor(
    private readonly url: string,
    private readonly onMessage: (payload: string) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'wpk-broker-listen', keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === WAKE_CHANNEL) this.onMessage(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'event wake-up connection lost');
      this.reconnectLater(client);
    });
    client.on('end', () => this.reconnectLater(client));
    await client.connect();
    await client.query(`LISTEN ${WAKE_CHANNEL}`);
    this.client = client;
    this.attempt = 0;
  }

  private reconnectLater(client: pg.Client): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    client.end().catch(() => {});
    const delay = Math.min(30_000, 500 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => {
      this.connect()
        .then(() => this.onMessage('reconnected'))
        .catch((error) => {
          this.logger.warn({ err: error }, 'event wake-up reconnect failed');
          this.client = client;
          this.reconnectLater(client);
        });
    }, delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
