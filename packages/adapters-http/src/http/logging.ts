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

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino({ level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, options.destination);
}

export type { Logger };
