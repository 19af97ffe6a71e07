import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors.js';

/**
 * An ILIKE pattern that matches `text` literally (`%`, `_` and `\` escaped): anywhere in the
 * value by default, at its start with `'prefix'`, or the whole value (ignoring case) with `'exact'`.
 */
export function likePattern(text: string, position: 'anywhere' | 'prefix' | 'exact' = 'anywhere'): string {
  const escaped = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  if (position === 'exact') return escaped;
  return position === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}

/**
 * Runs a write whose uniqueness the service checked first: when a concurrent request wrote the
 * same row in between, the database's unique constraint refuses it and this answers 409 with
 * `message` instead of a fault. Any other error is rethrown as it is.
 */
export async function conflictOnDuplicate<T>(write: Promise<T> | (() => Promise<T>), message: string): Promise<T> {
  try {
    return await (typeof write === 'function' ? write() : write);
  } catch (error) {
    // ctx.db's models are Sequelize models: a unique violation surfaces as this error class.
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}

/** A new record id: a random UUID (the shape of every id the platform and its apps create). */
export function newId(): string {
  return randomUUID();
}
