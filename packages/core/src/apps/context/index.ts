import type { BaseContext } from '@wpk/sdk';
import { aiOf } from './ai.js';
import { contextWorkspace } from './caller.js';
import { claimsOf } from './claims.js';
import { dbOf, lockOf } from './db.js';
import { eventsOf } from './events.js';
import { appLogger, factsOf } from './facts.js';
import type { ContextInputs } from './inputs.js';
import { liveOf } from './live.js';
import { mailOf } from './mail.js';
import { membersOf } from './members.js';
import { platformOf } from './platform.js';
import { searchOf } from './search.js';
import { secretsOf } from './secrets.js';
import { nowOf, settingsOf } from './settings.js';
import { signalingOf } from './signaling.js';
import { usageOf } from './usage.js';
import { transactionGate } from '../../server/index.js';

export { contextPermissions, contextWorkspace, keyOf, memberOf } from './caller.js';
export { appLogger, factsOf } from './facts.js';
export { emptyOutbox, type AppRuntime, type ContextInputs, type ContextOutbox, type ContextPlatform, type PlatformRequester, type SignalingOperation, type Work } from './inputs.js';
export { fileAnswer, toAppRequest } from './request.js';
export { DeferredStorage, storageHandle } from './storage.js';

/**
 * The parts every context shares, one factory per capability, each from the one inputs object:
 * app, workspace, db and transaction, events, lock, members, search, live, storage, signaling,
 * secrets, claims, mail, ai, platform, usage, settings, now, log. `extra` (the caller, the page, `respond`) comes first,
 * as it always has; the context is one object literal, so every context has one shape.
 */
export function baseContext<Extra extends object = object>(given: ContextInputs, extra?: Extra): BaseContext & Extra {
  // A unit of work that is one transaction from the start (an event's delivery, a service's run)
  // is one connection: its statements take turns (a request's LazyWork is its own gate).
  const inputs = given.work.gate || !given.work.transaction ? given : { ...given, work: { ...given.work, gate: transactionGate() } };
  const { db, transaction } = dbOf(inputs);
  return {
    ...(extra as Extra),
    app: factsOf(inputs.runtime.app).app,
    workspace: contextWorkspace(inputs.workspace, inputs.platform.publicUrl),
    db,
    transaction,
    events: eventsOf(inputs),
    lock: lockOf(inputs),
    members: membersOf(inputs),
    search: searchOf(inputs),
    live: liveOf(inputs),
    storage: inputs.storage,
    signaling: signalingOf(inputs),
    secrets: secretsOf(inputs),
    claims: claimsOf(inputs),
    mail: mailOf(inputs),
    ai: aiOf(inputs),
    platform: platformOf(inputs),
    usage: usageOf(inputs),
    settings: settingsOf(inputs),
    now: nowOf(inputs),
    log: appLogger(inputs.logger),
  };
}
