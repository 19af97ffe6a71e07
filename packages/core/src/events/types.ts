import type { ErrorObject } from 'ajv';
/** A JSON Schema document (draft 2020-12 / draft-07 keywords, as ajv reads them). */
export type JsonSchema = Record<string, unknown>;

/** One action a participant emits, as its manifest declares it. */
export interface EmitDeclaration {
  /** `{scope}.{app}.{resource}.{action}` */
  action: string;
  description: string;
  /** JSON Schema of `payload`; must be `type: "object"`. */
  schema: JsonSchema;
  /**
   * Payload fields (top-level names, or dotted paths into nested objects) that are sealed at rest
   * and masked in logs and listings. Subscribers receive them in clear.
   */
  redact?: string[];
}

/** One subscription, as a manifest declares it. */
export interface SubscriptionDeclaration {
  action: string;
  /** Handler path, POSTed to at the participant's address. */
  handler: string;
  /** Retries after the first attempt; default 3. */
  max_retries?: number;
}

/** An app (or the runtime) on the bus: what it emits and what it subscribes to. */
export interface ParticipantDeclaration {
  /** `tasks` for a first-party app, `ext.{publisher}.{app}` for a third-party one. */
  slug: string;
  firstParty: boolean;
  /**
   * Base URL deliveries go to (`https://hello.acme.dev`), or null when the app runs inside this
   * platform's own server (its handlers are mounted with `mountSubscriptions`).
   */
  address: string | null;
  emits?: EmitDeclaration[];
  subscriptions?: SubscriptionDeclaration[];
  /** Where the declaration came from (a manifest path), used to prefix error messages. */
  source?: string;
}

/** A participant as the bus holds it. */
export interface Participant {
  slug: string;
  firstParty: boolean;
  address: string | null;
}

/** One subscription as the bus holds it. */
export interface Subscription {
  subscriber: string;
  action: string;
  handler: string;
  maxRetries: number;
}

/** What the broker needs to know about an action. */
export interface ActionEntry {
  action: string;
  description: string;
  schema: JsonSchema;
  redact: string[];
  emitters: Set<string>;
  validate: ValidateFunction;
}

/** A compiled schema check. `errors` describes the last failure. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The catalog as the broker reads it: the registry in-process, or a copy loaded from the database. */
export interface EventCatalog {
  action(action: string): ActionEntry | undefined;
  subscriptionsFor(action: string): Subscription[];
  participant(slug: string): Participant | undefined;
  /** Human-readable text of a validation failure. */
  errorsText(errors: ErrorObject[] | null | undefined): string;
}
