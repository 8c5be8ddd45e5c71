import { DomainError, type ErrorKind, type FieldProblem } from '@plaza/domain';
import { ZodError } from 'zod';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

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

export function validationProblems(error: ZodError, prefix?: string): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)',
    problem: issue.message,
  }));
}

/** The only place that turns a failure into a status code and the error body of DESIGN.md §2. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (error.kind === 'rate_limited' && 'retryAfterSeconds' in error) {
      headers['Retry-After'] = String((error as { retryAfterSeconds: number }).retryAfterSeconds);
    }
    return { status: STATUS[error.kind], body: body(error.message, error.code, error.details), headers, internal: false };
  }
  if (error instanceof ZodError) {
    const details = validationProblems(error);
    const message = details.map((d) => `${d.field}: ${d.problem}`).join('; ');
    return { status: 400, body: body(message, 'invalid_input', details), headers: {}, internal: false };
  }
  const e = error as { status?: number; statusCode?: number; httpCode?: number; code?: string; expose?: boolean; message?: string; type?: string };
  if (e && typeof e.code === 'string' && CONNECTION_ERRORS.has(e.code)) {
    return { status: 503, body: body('The database is unreachable, try again shortly', 'database_unavailable'), headers: {}, internal: true };
  }
  const status = e?.status ?? e?.statusCode ?? e?.httpCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return { status, body: body('Request body too large', 'payload_too_large'), headers: {}, internal: false };
    if (status === 415) return { status, body: body('Unsupported content type', 'unsupported_media_type'), headers: {}, internal: false };
    if (status === 405) return { status, body: body(e.expose && e.message ? e.message : 'Method not allowed', 'method_not_allowed'), headers: {}, internal: false };
    if (e.type === 'entity.parse.failed' || /json/i.test(e.message ?? '')) {
      return { status: 400, body: body('Malformed JSON body', 'malformed_json'), headers: {}, internal: false };
    }
    return { status, body: body(e.expose && e.message ? e.message : 'Bad request', 'bad_request'), headers: {}, internal: false };
  }
  return { status: 500, body: body('Internal server error', 'internal_error'), headers: {}, internal: true };
}
