/** One event staged by a handler, not yet written anywhere. */
export interface StagedEvent {
  /** Who emits it: an app slug (`tasks`, `ext.acme.hello`) or `system` for the runtime. */
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Optional deduplication key; the broker rejects a second event with the same key and payload. */
  dedupeKey?: string;
  /** Deliver no earlier than this instant. */
  deliverAt?: Date;
  /**
   * Not an event but a withdrawal: the emitter's earlier events of `action` with `dedupeKey` that
   * no subscriber received yet are taken back (their payload is ignored).
   */
  withdraw?: true;
}

/**
 * Where staged events go once a request succeeds. `write` runs inside the request's database
 * transaction (the outbox), so the events commit or vanish with the handler's own writes;
 * `afterCommit` runs once that transaction has committed, to wake the broker.
 */
export interface EventSink {
  /**
   * `last`: nothing else is sent in the transaction after these events (the request commits right
   * after), so the sink may send the COMMIT with its last statement (`FastQuery.rowsThenCommit`);
   * a sink that wraps another passes it on, or drops it and loses only that round trip.
   */
  write(workspaceId: string | null, events: StagedEvent[], last?: boolean): Promise<void>;
  afterCommit(): void;
}
