import { ERROR_CODES, type ErrorKind } from '@plaza/domain';

/** The status each kind of domain error answers with (DESIGN.md §2): the only place that decides it. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
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

/**
 * Codes answered without a domain error: by the HTTP framework itself, the server's probes, and the
 * login's 200 refusals (docs/decisions/0002), which carry a code too.
 */
const ANSWERED_BY_THE_SERVER: Record<string, { statuses: number[]; meaning: string }> = {
  bad_request: { statuses: [400], meaning: 'A request the HTTP layer could not take (another 4xx of the framework)' },
  method_not_allowed: { statuses: [405], meaning: 'The path does not take this method (`Allow` names those it takes)' },
  range_not_satisfiable: { statuses: [416], meaning: 'A `Range` outside the uploaded file' },
  internal_error: { statuses: [500], meaning: 'A fault of the server, logged with its request id; never the client’s' },
  database_unavailable: { statuses: [503], meaning: 'The database does not answer; try again shortly' },
  starting: { statuses: [503], meaning: 'The server is starting (waiting for the database or running migrations)' },
  shutting_down: { statuses: [503], meaning: 'The server is shutting down' },
  two_factor_required: {
    statuses: [200],
    meaning: 'Login: the password is right and a two-factor code is needed (`two_factor_required: true`)',
  },
  // The federation endpoints' refusals to other servers (packages/adapters-activitypub/src/federation.ts).
  not_acceptable: { statuses: [406], meaning: 'Federation: the resource is served as `application/activity+json` only' },
  unauthorized: { statuses: [401], meaning: 'Federation: an object or collection that needs a signed request was fetched unsigned' },
  signature_required: {
    statuses: [401],
    meaning: 'Federation: an inbox delivery without an HTTP Signature, or (secure mode) an unsigned fetch of a Note or collection',
  },
  signature_incomplete: {
    statuses: [401],
    meaning: 'Federation: the HTTP Signature names no keyId or does not cover the headers it must',
  },
  digest_required: { statuses: [401], meaning: 'Federation: an inbox delivery without a `Digest` header' },
  invalid_page: { statuses: [400], meaning: 'Federation: a collection page that is not a positive whole number' },
};

/** Login refusals that the mobile client reads only on a 200 (docs/decisions/0002). */
const LOGIN_REFUSALS = new Set(['invalid_credentials', 'email_unconfirmed', 'approval_pending']);

export interface ErrorCodeRow {
  code: string;
  /** The statuses an answer with this code may have. */
  statuses: number[];
  meaning: string;
}

/** Every error `code` Plaza answers with, its statuses and meaning, sorted by code: the README's table and the OpenAPI's. */
export function errorCodeTable(): ErrorCodeRow[] {
  const rows: ErrorCodeRow[] = Object.entries(ERROR_CODES).map(([code, entry]) => {
    const statuses = [...new Set(entry.kinds.map((kind) => STATUS_OF_KIND[kind]))];
    if (LOGIN_REFUSALS.has(code)) statuses.unshift(200);
    return { code, statuses: statuses.sort((a, b) => a - b), meaning: entry.meaning };
  });
  for (const [code, entry] of Object.entries(ANSWERED_BY_THE_SERVER)) rows.push({ code, ...entry });
  return rows.sort((a, b) => a.code.localeCompare(b.code));
}

/** The statuses an answer carrying `code` may have (empty for a code Plaza does not answer with). */
export function statusesOfCode(code: string): number[] {
  return errorCodeTable().find((row) => row.code === code)?.statuses ?? [];
}

/** The table as the README shows it, between its `error-codes` markers. */
export function errorCodesMarkdown(): string {
  const lines = ['| Code | Status | Meaning |', '|---|---|---|'];
  for (const row of errorCodeTable()) lines.push(`| \`${row.code}\` | ${row.statuses.join(', ')} | ${row.meaning.replace(/\|/g, '\\|')} |`);
  return lines.join('\n');
}
