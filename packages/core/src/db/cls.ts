import { AsyncLocalStorage } from 'node:async_hooks';
import { Sequelize, type Transaction } from 'sequelize';

/**
 * Sequelize's "CLS" hook on AsyncLocalStorage: inside `sequelize.transaction(async () => ...)`
 * every query joins that transaction without passing it by hand. This matters twice over:
 * a forgotten `transaction` option would write outside the request's transaction, and on the
 * embedded database it would wait forever behind the open transaction.
 */
const storage = new AsyncLocalStorage<Map<string, unknown>>();

const namespace = {
  run(fn: (context: Map<string, unknown>) => unknown) {
    const context = new Map(storage.getStore() ?? []);
    return storage.run(context, () => fn(context));
  },
  get(key: string) {
    return storage.getStore()?.get(key);
  },
  set(key: string, value: unknown) {
    storage.getStore()?.set(key, value);
  },
  bind<T>(fn: T) {
    return fn;
  },
};

let installed = false;

/** Installs the AsyncLocalStorage namespace on Sequelize (idempotent). */
export function installTransactionContext(): void {
  if (installed) return;
  // Sequelize types useCLS for a cls-hooked Namespace; this shim has the four methods it calls.
  Sequelize.useCLS(namespace as never);
  installed = true;
}

/** The transaction the caller is in, if any: the one `sequelize.transaction(async () => ...)` opened around it. */
export function currentTransaction(): Transaction | undefined {
  return storage.getStore()?.get('transaction') as Transaction | undefined;
}

/**
 * Runs `fn` outside any transaction, even when called from inside one (an after-commit hook runs
 * while the committed transaction is still the ambient one): its statements take a pool connection.
 */
export function outsideTransaction<T>(fn: () => T): T {
  return storage.run(new Map(), fn);
}

const NESTED = 'wpk:nested-in';
const DEPTH = 'wpk:nested-depth';

/**
 * Runs `fn` (an app's in-process platform request, `ctx.platform.request`) as a part of the unit
 * of work `transaction` belongs to: every query joins it, and every transaction opened inside is
 * a savepoint of it (see `nestTransactions`). The call's writes then commit or roll back with the
 * caller's work, and on the embedded database (one session) it never waits behind its own caller.
 */
export function runNested<T>(transaction: Transaction, fn: () => T): T {
  return storage.run(new Map<string, unknown>([['transaction', transaction], [NESTED, transaction], [DEPTH, nestingDepth() + 1]]), fn);
}

/** How many nested requests the caller runs in (0: none). */
export function nestingDepth(): number {
  return (storage.getStore()?.get(DEPTH) as number | undefined) ?? 0;
}

/** The unit of work the caller's request is nested in (`runNested`), if any. */
export function nestingParent(): Transaction | undefined {
  return storage.getStore()?.get(NESTED) as Transaction | undefined;
}

type TransactionCall = (options?: unknown, autoCallback?: unknown) => Promise<unknown>;

/**
 * Within a nested request (`runNested`), `sequelize.transaction()` without a parent opens a
 * savepoint of the innermost transaction instead of a transaction on a second connection.
 */
export function nestTransactions(sequelize: Sequelize): void {
  const original = sequelize.transaction.bind(sequelize) as TransactionCall;
  const nested: TransactionCall = (options, autoCallback) => {
    const parent = nestingParent();
    if (!parent) return original(options, autoCallback);
    const callback = typeof options === 'function' ? options : autoCallback;
    const given = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
    const within = given.transaction ?? currentTransaction() ?? parent;
    return original({ ...given, transaction: within }, callback);
  };
  (sequelize as unknown as { transaction: TransactionCall }).transaction = nested;
}
