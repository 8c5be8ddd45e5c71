/**
 * Typed domain failures. Each carries a stable snake_case `code` that clients may match on and a
 * human message; only the HTTP adapter decides which status code a kind becomes.
 */
import type { ErrorCode, ErrorCodeOf, ErrorKind } from './error-codes.js';

export * from './error-codes.js';

export interface FieldProblem {
  field: string;
  problem: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    message: string,
    readonly code: ErrorCode,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends DomainError {
  readonly kind = 'invalid' as const;
  constructor(message: string, code: ErrorCodeOf<'invalid'> = 'invalid_input', details: FieldProblem[] = []) {
    super(message, code, details);
  }
  /** A single-field validation failure, the most common case. */
  static field(field: string, problem: string, code: ErrorCodeOf<'invalid'> = 'invalid_input'): Invalid {
    return new Invalid(`${field}: ${problem}`, code, [{ field, problem }]);
  }
}

export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated' as const;
  constructor(message = 'Authentication required', code: ErrorCodeOf<'unauthenticated'> = 'unauthenticated') {
    super(message, code);
  }
}

export class Forbidden extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor(message = 'You are not allowed to do this', code: ErrorCodeOf<'forbidden'> = 'forbidden') {
    super(message, code);
  }
}

export class NotFound extends DomainError {
  readonly kind = 'not_found' as const;
  constructor(message = 'Not found', code: ErrorCodeOf<'not_found'> = 'not_found') {
    super(message, code);
  }
}

export class Conflict extends DomainError {
  readonly kind = 'conflict' as const;
  constructor(message: string, code: ErrorCodeOf<'conflict'> = 'conflict') {
    super(message, code);
  }
}

export class PayloadTooLarge extends DomainError {
  readonly kind = 'payload_too_large' as const;
  constructor(message = 'Payload too large', code: ErrorCodeOf<'payload_too_large'> = 'payload_too_large') {
    super(message, code);
  }
}

export class UnsupportedMediaType extends DomainError {
  readonly kind = 'unsupported_media_type' as const;
  constructor(message = 'Unsupported media type', code: ErrorCodeOf<'unsupported_media_type'> = 'unsupported_media_type') {
    super(message, code);
  }
}

export class Unprocessable extends DomainError {
  readonly kind = 'unprocessable' as const;
  constructor(message: string, code: ErrorCodeOf<'unprocessable'> = 'unprocessable') {
    super(message, code);
  }
}

export class RateLimited extends DomainError {
  readonly kind = 'rate_limited' as const;
  constructor(
    readonly retryAfterSeconds: number,
    /** The figures for the X-RateLimit-* headers of the refusal. */
    readonly decision?: { limit: number; remaining: number; reset: number },
    message = 'Rate limit exceeded, try again later',
    code: ErrorCodeOf<'rate_limited'> = 'rate_limited',
  ) {
    super(message, code);
  }
}

export class Unavailable extends DomainError {
  readonly kind = 'unavailable' as const;
  constructor(message = 'Service temporarily unavailable', code: ErrorCodeOf<'unavailable'> = 'unavailable') {
    super(message, code);
  }
}
