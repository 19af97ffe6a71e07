import { DomainError } from '@wpk/sdk';

/** The layer of the access model that refused: 1 authentication, 2 membership, 3 platform role or key, 4 app access, 5 the route's chain. */
export type DenialLayer = 1 | 2 | 3 | 4 | 5;

/**
 * A refusal that says which layer refused, why, and which permission key was missing. The
 * caller sees only `message` (401 for layer 1, 403 otherwise); the one denial log line
 * (server/conventions.ts) reads the rest, never the message text.
 */
export class AccessDenied extends DomainError {
  constructor(
    /** Which layer refused. */
    readonly layer: DenialLayer,
    message: string,
    /** Why, in words an admin can read (logged, never answered). */
    readonly reason: string = message,
    /** The permission key the caller lacked, when one key decided it. */
    readonly permission: string | null = null,
    /** The app (or `account`, the platform) whose rule refused. */
    readonly app: string | null = null,
    /** Where, for the log's explain line (default: `METHOD /path`). */
    readonly where: string | null = null,
  ) {
    super(layer === 1 ? 401 : 403, message);
  }
}
