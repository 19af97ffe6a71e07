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
