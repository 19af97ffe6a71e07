import Boom from '@hapi/boom';
import { isDomainError } from '@wpk/sdk';
import type { ValidationError } from 'joi';
import { UniqueConstraintError } from 'sequelize';

/** The answer for an error: status, `{"error": ...}` body (with `field` when one input is refused) and any extra headers. */
export interface ErrorAnswer {
  status: number;
  body: { error: string; field?: string };
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
    return { status: error.status, body: withField(error.message, error.field), headers: error.headers, fault: false };
  }
  if (error instanceof UniqueConstraintError) {
    // A race two requests both passed a "does it exist?" check for: the database decides.
    const fields = Object.keys(error.fields ?? {}).filter((field) => field !== 'workspace_id');
    const message = fields.length ? `A record with this ${fields.join(', ')} already exists` : 'This record already exists';
    return { status: 409, body: withField(message, fields.length === 1 ? fields[0] : undefined), headers: {}, fault: false };
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
  return { status, body: withField(boom.message || String(boom.output.payload.error), refusedField(boom)), headers, fault: false };
}

/** The body of a refusal: `field` only when the refusal names one input. */
function withField(error: string, field: string | undefined): { error: string; field?: string } {
  return field ? { error, field } : { error };
}

/** Boom refusals carry the input they are about as `data.field` (validationFailure, refuseField). */
function refusedField(boom: Boom.Boom): string | undefined {
  const data = boom.data as { field?: unknown } | null | undefined;
  return data && typeof data === 'object' && typeof data.field === 'string' ? data.field : undefined;
}

/** A 400 about one input, as a Boom error: answered as `{"error": message, "field": field}`. */
export function refuseField(message: string, field: string | undefined): Boom.Boom {
  return Boom.badRequest(message, field ? { field } : undefined);
}

/**
 * A joi path as the platform names an input (the same as joi's own labels): object keys joined
 * by `.`, array indexes in brackets (`items[0].amount`, `address.city`); empty for the root.
 */
export function inputPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

/**
 * Turns a joi failure into a 400 naming the field and the rule: the message as joi words it,
 * and `field`, the path of the first invalid input (none when the whole body or query is refused).
 */
export function validationFailure(source: string, error: ValidationError | Error): Boom.Boom {
  const detail = (error as ValidationError).details?.[0];
  if (!detail) return Boom.badRequest(error.message);
  const where = source === 'query' ? 'query parameter ' : source === 'params' ? 'path parameter ' : '';
  const path = inputPath(detail.path);
  const message = path ? detail.message : detail.message.replace(/^value\b/, 'body');
  return refuseField(where && !message.startsWith(where) ? `${where}${message}` : message, path || undefined);
}
