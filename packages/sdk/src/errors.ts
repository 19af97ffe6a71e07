/**
 * Domain errors. Services throw these; the runtime maps each to its HTTP status and the
 * `{"error": "..."}` body in one place, so app code never touches HTTP. A refusal about one
 * input names it in `field` (`{"error": "...", "field": "email"}`), so a form shows the message
 * beside that input.
 */

/** What a refusal may say besides its message. */
export interface RefusalOptions {
  /**
   * The input the refusal is about, as a path into the request: `email`, `address.city`,
   * `items[0].amount` (object keys joined by `.`, array indexes in brackets; a query or path
   * parameter by its name). Answered as the body's `field`.
   */
  field?: string;
}

/** Base class of every error the platform turns into a 4xx answer. */
export class DomainError extends Error {
  /** The HTTP status this error answers with. */
  readonly status: number;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers: Record<string, string>;
  /** The input the refusal is about (see RefusalOptions.field), answered as the body's `field`. */
  readonly field: string | undefined;

  constructor(status: number, message: string, headers: Record<string, string> = {}, options: RefusalOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.headers = headers;
    this.field = options.field;
  }
}

/** 400: the input breaks a rule; the message names the field and the rule (`{ field: 'email' }` names it for forms too). */
export class InvalidError extends DomainError {
  constructor(message: string, options: RefusalOptions = {}) {
    super(400, message, {}, options);
  }
}

/** 401: no usable credential. */
export class UnauthorizedError extends DomainError {
  constructor(message = 'Authentication required') {
    super(401, message);
  }
}

/** 403: the caller may not do this; the message names the denied action. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404: the resource does not exist in this workspace (or is not visible to the caller). */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 409: the request conflicts with the current state (duplicate, wrong state); `{ field: 'email' }` names the input that clashes. */
export class ConflictError extends DomainError {
  constructor(message: string, options: RefusalOptions = {}) {
    super(409, message, {}, options);
  }
}

/** 413: the body is larger than the limit; the message gives the limit. */
export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super(413, message);
  }
}

/** 415: the body's media type is not accepted, or its bytes are not what its declared type says. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string) {
    super(415, message);
  }
}

/** 429: too many attempts; `retryAfterSeconds` becomes the `Retry-After` header. */
export class TooManyRequestsError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 503: the operation needs something this server does not have (a program, a service); the message says what to set up. */
export class UnavailableError extends DomainError {
  constructor(message: string) {
    super(503, message);
  }
}

/** True for errors the platform answers as a 4xx with their own message. */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
