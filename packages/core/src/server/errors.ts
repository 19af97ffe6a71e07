import Boom from '@hapi/boom';
import { isDomainError } from '@wpk/sdk';
import type { ValidationError } from 'joi';
import { UniqueConstraintError } from 'sequelize';

/** The answer for an error: status, `{"error": ...}` body and any extra headers. */
export interface ErrorAnswer {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
  /** True when the cause must be logged (a fault, not the caller's mistake). */
  fault: boolean;
}

const GENERIC_FAULT = 'An unexpected error occurred';

/**
 * Maps any error to the platform's error answer. Domain errors keep their status and message;
 * Boom errors keep theirs; anything else is a fault: 500 with a generic message that carries the
 * request id, never the cause.
 */
export function toErrorAnswer(error: Error, requestId: string): ErrorAnswer {
  if (isDomainError(error)) {
    return { status: error.status, body: { error: error.message }, headers: error.headers, fault: false };
  }
  if (error instanceof UniqueConstraintError) {
    // A race two requests both passed a "does it exist?" check for: the database decides.
    const fields = Object.keys(error.fields ?? {}).filter((field) => field !== 'workspace_id');
    return { status: 409, body: { error: fields.length ? `A record with this ${fields.join(', ')} already exists` : 'This record already exists' }, headers: {}, fault: false };
  }
  if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') {
    // A path longer than the file system allows names no file we serve (inert reports it as a fault).
    return { status: 404, body: { error: 'Not Found' }, headers: {}, fault: false };
  }
  const boom = Boom.isBoom(error) ? error : Boom.boomify(error);
  const status = boom.output.statusCode;
  if (status >= 500) {
    const message = status === 503 ? String(boom.output.payload.message) : GENERIC_FAULT;
    return { status, body: { error: `${message} (request id ${requestId})` }, headers: {}, fault: true };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(boom.output.headers)) {
    if (value !== undefined && name.toLowerCase() !== 'content-type') headers[name] = String(value);
  }
  return { status, body: { error: boom.message || String(boom.output.payload.error) }, headers, fault: false };
}

/** Turns a joi failure into a 400 naming the field and the rule. */
export function validationFailure(source: string, error: ValidationError | Error): Boom.Boom {
  const detail = (error as ValidationError).details?.[0];
  if (!detail) return Boom.badRequest(error.message);
  const where = source === 'query' ? 'query parameter ' : source === 'params' ? 'path parameter ' : '';
  const field = detail.path.length ? detail.path.join('.') : 'body';
  const message = detail.path.length ? detail.message : detail.message.replace(/^value\b/, field);
  return Boom.badRequest(where && !message.startsWith(where) ? `${where}${message}` : message);
}
