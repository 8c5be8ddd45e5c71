import { DomainError, type FieldProblem, Invalid, PayloadTooLarge, UnsupportedMediaType } from '@plaza/domain';
import { ZodError } from 'zod';
import { STATUS_OF_KIND } from './error-codes.js';
import { type CheckedValue, fieldProblems, problemsMessage } from './field-messages.js';

const STATUS = STATUS_OF_KIND;

export interface ErrorResponse {
  status: number;
  body: { success: false; error: string; message: string; code: string; details?: FieldProblem[] };
  headers: Record<string, string>;
  /** True for failures that are our fault and must be logged with their stack. */
  internal: boolean;
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'POOL_CLOSED',
  'SQLITE_BUSY',
]);

function body(message: string, code: string, details?: FieldProblem[]): ErrorResponse['body'] {
  return { success: false, error: message, message, code, ...(details && details.length ? { details } : {}) };
}

/** One plain-words problem per field of a failed check (http/field-messages.ts). */
export function validationProblems(error: ZodError, checked: CheckedValue = {}): FieldProblem[] {
  return fieldProblems(error, checked);
}

/** The only place that turns a failure into a status code and the error body of DESIGN.md §2. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (error.kind === 'rate_limited' && 'retryAfterSeconds' in error) {
      headers['Retry-After'] = String((error as { retryAfterSeconds: number }).retryAfterSeconds);
    }
    // RFC 6750 §3: every 401 names the scheme, and says when a token was sent and refused.
    if (error.kind === 'unauthenticated')
      headers['WWW-Authenticate'] = error.code === 'invalid_token' ? 'Bearer error="invalid_token"' : 'Bearer';
    return { status: STATUS[error.kind], body: body(error.message, error.code, error.details), headers, internal: false };
  }
  if (error instanceof ZodError) {
    const details = validationProblems(error);
    const message = problemsMessage(details);
    return { status: 400, body: body(message, 'invalid_input', details), headers: {}, internal: false };
  }
  const e = error as { code?: string; expose?: boolean; message?: string };
  if (e && typeof e.code === 'string' && CONNECTION_ERRORS.has(e.code)) {
    return {
      status: 503,
      body: body('The database is unreachable, try again shortly', 'database_unavailable'),
      headers: {},
      internal: true,
    };
  }
  const status = httpStatusOf(error);
  if (status !== undefined && status >= 400 && status < 500) {
    if (status === 405)
      return {
        status,
        body: body(e.expose && e.message ? e.message : 'Method not allowed', 'method_not_allowed'),
        headers: {},
        internal: false,
      };
    return { status, body: body(e.expose && e.message ? e.message : 'Bad request', 'bad_request'), headers: {}, internal: false };
  }
  return { status: 500, body: body('Internal server error', 'internal_error'), headers: {}, internal: true };
}

function httpStatusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown; httpCode?: unknown } | null;
  const status = e?.status ?? e?.statusCode ?? e?.httpCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * What koa-body and the libraries under it (co-body, raw-body, inflation, zlib) throw while reading a
 * body, as the domain error the client gets; the body middleware calls it on every such failure. They
 * set `status` (and raw-body a `type`) on what is the client's fault, except one case: zlib and brotli
 * report a body that does not decode with a bare `Error` (`Z_DATA_ERROR`, `Z_BUF_ERROR`, …), which is
 * a client's fault too when the request declared a Content-Encoding. Anything else is returned as it
 * came (our fault: a 500).
 */
export function bodyReadError(error: unknown, contentEncoding: string): unknown {
  const status = httpStatusOf(error);
  const type = (error as { type?: unknown } | null)?.type;
  if (status === 413) return new PayloadTooLarge('Request body too large', 'payload_too_large');
  if (status === 415) {
    // inflation: an encoding other than identity, gzip, deflate and br; raw-body: an unknown charset.
    return type === 'encoding.unsupported'
      ? new UnsupportedMediaType('Unsupported charset: send UTF-8', 'unsupported_media_type')
      : new UnsupportedMediaType(
          `Unsupported Content-Encoding ${JSON.stringify(contentEncoding.slice(0, 40))}: send identity, gzip, deflate or br`,
          'unsupported_encoding',
        );
  }
  if (status === 400 && error instanceof SyntaxError) return new Invalid('Malformed JSON body', 'malformed_json');
  if (status !== undefined && status >= 400 && status < 500) return new Invalid('The request body could not be read', 'malformed_body');
  if (status === undefined && contentEncoding !== '' && contentEncoding !== 'identity') {
    return new Invalid(`The body is not valid ${contentEncoding} data, as its Content-Encoding says`, 'malformed_encoding');
  }
  return error;
}
