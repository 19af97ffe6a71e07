import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject } from 'ajv';
import { ACCOUNT_EVENTS, BILLING_EVENTS, RUNTIME_EVENTS } from './catalog.js';
import { ACCOUNT_SLUG, actionNameProblem, BILLING_SLUG, emitScopeProblem, isHandlerPath, RUNTIME_SLUG, RUNTIME_SLUGS, slugProblem } from './names.js';
import { SchemaCompiler } from './schema.js';
import type { ActionEntry, EmitDeclaration, EventCatalog, JsonSchema, Participant, ParticipantDeclaration, Subscription } from './types.js';

/** A declaration that breaks a rule; raised at start-up, naming the participant and the field. */
export class EventRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventRegistrationError';
  }
}

/** Upper bound on `max_retries`: more would keep one delivery alive for days. */
export const MAX_RETRIES_LIMIT = 25;
export const DEFAULT_MAX_RETRIES = 3;

/**
 * Every participant on the bus, what each emits (with the compiled payload schema) and what it
 * subscribes to. Registration checks the scope rules and refuses a bad declaration at once, so a
 * wrong manifest stops start-up instead of failing at request time.
 */
export class EventRegistry implements EventCatalog {
  readonly schemas = new SchemaCompiler();
  private readonly participants = new Map<string, Participant>();
  private readonly actions = new Map<string, ActionEntry>();
  private readonly subscriptions = new Map<string, Subscription[]>();
  private readonly listeners: Array<() => void> = [];

  /** Registers the platform runtime itself: the `system.*` and `core.account.*` catalog. */
  static withRuntimeCatalog(): EventRegistry {
    const registry = new EventRegistry();
    registry.add({ slug: RUNTIME_SLUG, firstParty: true, address: null, emits: RUNTIME_EVENTS, subscriptions: [] }, true);
    registry.add({ slug: ACCOUNT_SLUG, firstParty: true, address: null, emits: ACCOUNT_EVENTS, subscriptions: [] }, true);
    registry.add({ slug: BILLING_SLUG, firstParty: true, address: null, emits: BILLING_EVENTS, subscriptions: [] }, true);
    return registry;
  }

  /** Calls `listener` after every change (used to keep the stored catalog in step). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Registers an app. Throws EventRegistrationError when the slug, an emitted action (scope rules,
   * schema, redaction paths) or a subscription (action name, handler path, max_retries) is wrong.
   */
  registerParticipant(declaration: ParticipantDeclaration): Participant {
    return this.add(declaration, false);
  }

  /**
   * Adds subscriptions of the runtime itself (the audit trail, for instance). They are delivered
   * like any other: signed, over HTTP, with retries.
   */
  addRuntimeSubscriptions(subscriptions: NonNullable<ParticipantDeclaration['subscriptions']>): void {
    const where = `events: participant "${RUNTIME_SLUG}"`;
    const list = this.subscriptions;
    const checked = subscriptions.map((subscription, index) => this.checkSubscription(RUNTIME_SLUG, where, subscription, index));
    for (const subscription of checked) {
      const existing = list.get(subscription.action) ?? [];
      if (existing.some((other) => other.subscriber === RUNTIME_SLUG && other.handler === subscription.handler)) continue;
      list.set(subscription.action, [...existing, subscription]);
    }
    this.changed();
  }

  /** Loads participants verbatim from a stored catalog (already checked when first registered). */
  static fromStored(participants: Array<ParticipantDeclaration>): EventRegistry {
    const registry = new EventRegistry();
    for (const participant of participants) registry.add(participant, RUNTIME_SLUGS.has(participant.slug), true);
    return registry;
  }

  private add(declaration: ParticipantDeclaration, runtime: boolean, trusted = false): Participant {
    const label = declaration.source ? `${declaration.source}: ` : '';
    const where = `${label}events: participant "${declaration.slug}"`;
    if (!runtime) {
      const problem = slugProblem(declaration.slug, declaration.firstParty === true);
      if (problem) throw new EventRegistrationError(`${where}: ${problem}`);
    }
    if (typeof declaration.firstParty !== 'boolean') throw new EventRegistrationError(`${where}: firstParty must be true or false`);
    if (this.participants.has(declaration.slug)) throw new EventRegistrationError(`${where}: already registered`);
    const address = normaliseAddress(declaration.address, where);
    const emits = declaration.emits ?? [];
    const subscriptions = declaration.subscriptions ?? [];
    if (!Array.isArray(emits)) throw new EventRegistrationError(`${where}: emits must be an array`);
    if (!Array.isArray(subscriptions)) throw new EventRegistrationError(`${where}: subscriptions must be an array`);

    // Check everything before changing anything, so a refused participant leaves no trace.
    const newActions: Array<{ declaration: EmitDeclaration; validate: ActionEntry['validate'] }> = [];
    const seen = new Set<string>();
    emits.forEach((emit, index) => {
      const field = `${where}: emits[${index}]`;
      if (!emit || typeof emit !== 'object') throw new EventRegistrationError(`${field} must be an object`);
      const problem = actionNameProblem(emit.action) ?? (trusted ? null : emitScopeProblem(declaration.slug, declaration.firstParty, emit.action));
      if (problem) throw new EventRegistrationError(`${field}.action: ${problem}`);
      if (seen.has(emit.action)) throw new EventRegistrationError(`${field}.action: ${emit.action} is declared twice`);
      seen.add(emit.action);
      if (typeof emit.description !== 'string' || emit.description.trim() === '') throw new EventRegistrationError(`${field}.description must be a non-empty string`);
      const validate = this.compileSchema(emit.schema, `${field}.schema`);
      const redact = emit.redact ?? [];
      if (!Array.isArray(redact) || redact.some((path) => typeof path !== 'string')) throw new EventRegistrationError(`${field}.redact must be an array of field names`);
      for (const path of redact) {
        if (!schemaHasPath(emit.schema, path)) throw new EventRegistrationError(`${field}.redact: "${path}" is not a property of the payload schema`);
      }
      const existing = this.actions.get(emit.action);
      if (existing && !(isDeepStrictEqual(existing.schema, emit.schema) && isDeepStrictEqual(existing.redact, redact))) {
        throw new EventRegistrationError(`${field}.action: ${emit.action} is already declared by ${[...existing.emitters].join(', ')} with another schema`);
      }
      newActions.push({ declaration: { ...emit, redact }, validate });
    });
    const newSubscriptions = subscriptions.map((subscription, index) => this.checkSubscription(declaration.slug, where, subscription, index));

    const participant: Participant = { slug: declaration.slug, firstParty: declaration.firstParty, address };
    this.participants.set(participant.slug, participant);
    for (const { declaration: emit, validate } of newActions) {
      const existing = this.actions.get(emit.action);
      if (existing) existing.emitters.add(participant.slug);
      else {
        this.actions.set(emit.action, {
          action: emit.action,
          description: emit.description,
          schema: emit.schema,
          redact: emit.redact ?? [],
          emitters: new Set([participant.slug]),
          validate,
        });
      }
    }
    for (const subscription of newSubscriptions) {
      this.subscriptions.set(subscription.action, [...(this.subscriptions.get(subscription.action) ?? []), subscription]);
    }
    this.changed();
    return participant;
  }

  private checkSubscription(slug: string, where: string, subscription: NonNullable<ParticipantDeclaration['subscriptions']>[number], index: number): Subscription {
    const field = `${where}: subscriptions[${index}]`;
    if (!subscription || typeof subscription !== 'object') throw new EventRegistrationError(`${field} must be an object`);
    const nameProblem = actionNameProblem(subscription.action);
    if (nameProblem) throw new EventRegistrationError(`${field}.action: ${nameProblem}`);
    if (!isHandlerPath(subscription.handler)) throw new EventRegistrationError(`${field}.handler ${JSON.stringify(subscription.handler)} must be a URL path starting with "/"`);
    const maxRetries = subscription.max_retries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
      throw new EventRegistrationError(`${field}.max_retries must be an integer from 0 to ${MAX_RETRIES_LIMIT}`);
    }
    return { subscriber: slug, action: subscription.action, handler: subscription.handler, maxRetries };
  }

  private compileSchema(schema: JsonSchema, field: string) {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new EventRegistrationError(`${field} must be a JSON Schema object`);
    if (schema.type !== 'object') throw new EventRegistrationError(`${field} must describe an object (type: "object")`);
    try {
      return this.schemas.compile(schema);
    } catch (error) {
      throw new EventRegistrationError(`${field} is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Throws when `emitter` may not emit `action` (not declared, or against the scope rules). */
  assertMayEmit(emitter: string, action: string): void {
    const problem = this.emitProblem(emitter, action);
    if (problem) throw new Error(problem);
  }

  /** Why `emitter` may not emit `action` now, or null. */
  emitProblem(emitter: string, action: string): string | null {
    const participant = this.participants.get(emitter);
    if (!participant) return `${emitter} is not registered on the event bus`;
    const scope = emitScopeProblem(emitter, participant.firstParty, action);
    if (scope) return scope;
    const entry = this.actions.get(action);
    if (!entry || !entry.emitters.has(emitter)) return `${emitter} may not emit ${action}: its manifest does not declare it`;
    return null;
  }

  /** Subscriptions whose action nobody emits (warned about at start-up; the app may be absent). */
  unknownSubscriptions(): Subscription[] {
    return [...this.subscriptions.values()].flat().filter((subscription) => !this.actions.has(subscription.action));
  }

  action(action: string): ActionEntry | undefined {
    return this.actions.get(action);
  }

  subscriptionsFor(action: string): Subscription[] {
    return this.subscriptions.get(action) ?? [];
  }

  participant(slug: string): Participant | undefined {
    return this.participants.get(slug);
  }

  /** Every participant, its declared emissions and subscriptions, for storage and listing. */
  declarations(): ParticipantDeclaration[] {
    return [...this.participants.values()].map((participant) => ({
      slug: participant.slug,
      firstParty: participant.firstParty,
      address: participant.address,
      emits: [...this.actions.values()]
        .filter((entry) => entry.emitters.has(participant.slug))
        .map((entry) => ({ action: entry.action, description: entry.description, schema: entry.schema, redact: entry.redact })),
      subscriptions: [...this.subscriptions.values()]
        .flat()
        .filter((subscription) => subscription.subscriber === participant.slug)
        .map((subscription) => ({ action: subscription.action, handler: subscription.handler, max_retries: subscription.maxRetries })),
    }));
  }

  errorsText(errors: ErrorObject[] | null | undefined): string {
    return this.schemas.errorsText(errors);
  }
}

function normaliseAddress(address: unknown, where: string): string | null {
  if (address === null || address === undefined) return null;
  if (typeof address !== 'string') throw new EventRegistrationError(`${where}: address must be a URL or null`);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new EventRegistrationError(`${where}: address ${JSON.stringify(address)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EventRegistrationError(`${where}: address must be an http(s) URL`);
  if (url.search || url.hash) throw new EventRegistrationError(`${where}: address must not carry a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

/** True when the dotted `path` names a property declared in the object schema. */
function schemaHasPath(schema: JsonSchema, path: string): boolean {
  let node: unknown = schema;
  for (const part of path.split('.')) {
    const properties = (node as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!properties || !(part in properties)) return false;
    node = properties[part];
  }
  return true;
}
