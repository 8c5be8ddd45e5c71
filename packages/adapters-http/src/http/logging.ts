import pino, { type Logger } from 'pino';

const SECRET_QUERY_KEYS = /([?&](?:token|access_token|password|totp|code)=)[^&]*/gi;

/** A request URL safe to log: secret query values (export.php?token=…) are masked. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_KEYS, '$1[redacted]');
}

/** Paths masked in every log line, wherever a careless caller puts a secret. */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'password',
  'token',
  'totp',
  '*.password',
  '*.new_password',
  '*.current_password',
  '*.token',
  '*.totp',
  '*.password_hash',
  '*.token_hash',
  '*.totp_secret',
];

/**
 * The JSON logger. Without a destination it writes to stdout asynchronously (docs/decisions/0075): a
 * line is appended to a buffer that libuv writes out while requests go on, and lines logged while a
 * write is under way leave together in the next one, so logging costs a request no system call. Call
 * `logger.flush()` before exiting (server.ts does on close); `pino` flushes on a normal exit too.
 */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: false });
  return pino({ level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}

/**
 * The logger of the access line (one per request, app.ts): `logger` without its redaction. The line's
 * fields are fixed (request id, method, URL masked by `redactUrl`, status, ms, user id, address, user
 * agent), none named as a secret and none an object a `*.…` path could reach, so it is written byte for
 * byte as `logger` would; but with a `*.…` path pino runs the redactor over every field of a line, and
 * the redactor parses its paths again on each call (docs/decisions/0258). A field added to the access
 * line is therefore not redacted: it must never carry a secret.
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

export type { Logger };
