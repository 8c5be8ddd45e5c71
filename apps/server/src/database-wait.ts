import { type DatabaseHandle, probeDatabase } from '@plaza/adapters-mysql';
import type { Logger } from 'pino';
import type { DatabaseSettings } from './config.js';

/** First pause between attempts; it doubles up to the cap. */
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;

/**
 * Refusals no waiting cures (wrong credentials, no such database): start-up stops at once, naming the
 * variables to fix, instead of retrying for the whole timeout.
 */
const PERMANENT: Record<string, string> = {
  ER_ACCESS_DENIED_ERROR: 'the server refused the credentials: check DB_USER and DB_PASSWORD',
  ER_DBACCESS_DENIED_ERROR: 'DB_USER may not use DB_NAME',
  ER_BAD_DB_ERROR: 'no database named DB_NAME on the server: create it (README, Running against MySQL or MariaDB)',
};

/** Start-up could not reach the database: the message names the variables that say where it is. */
export class DatabaseUnreachable extends Error {}

/**
 * Waits until MySQL answers, so that a database starting after Plaza (compose, a reboot) delays the
 * start instead of failing it (docs/decisions/0101). Each failed attempt logs one line naming where it
 * tried; the pauses double from 250 ms to 5 s; after `connectTimeoutS` seconds (0: a single attempt)
 * it throws `DatabaseUnreachable` naming `DB_HOST`/`DB_PORT` or `DB_SOCKET`. SQLite is in-process:
 * nothing to wait for.
 */
export async function waitForDatabase(database: DatabaseHandle, settings: DatabaseSettings, logger: Logger): Promise<void> {
  if (settings.kind !== 'mysql') return;
  const nodes = settings.nodes.map((n) => `${n.host}:${n.port}`).join(', ');
  const where = settings.socketPath
    ? { socket: settings.socketPath }
    : settings.nodes.length > 1
      ? { nodes }
      : { host: settings.host, port: settings.port };
  const place = settings.socketPath ? `the socket ${settings.socketPath}` : nodes;
  const variables = settings.socketPath ? 'DB_SOCKET' : 'DB_HOST and DB_PORT';
  const deadline = Date.now() + settings.connectTimeoutS * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      await probeDatabase(database.root);
      if (attempt > 1) logger.info({ database: where, attempt }, 'database reachable');
      return;
    } catch (error) {
      const reason = reasonOf(error);
      const permanent = PERMANENT[reason];
      if (permanent) throw new DatabaseUnreachable(`the database at ${place} refused the connection (${reason}): ${permanent}`);
      const left = deadline - Date.now();
      const pause = Math.min(FIRST_PAUSE_MS * 2 ** (attempt - 1), LONGEST_PAUSE_MS, Math.max(left, 0));
      logger.warn({ database: where, attempt, error: reason, ...(left > 0 ? { retry_in_ms: pause } : {}) }, 'database not reachable');
      if (left <= 0) {
        const waited = settings.connectTimeoutS ? ` within DB_CONNECT_TIMEOUT_S=${settings.connectTimeoutS} s (${attempt} attempts)` : '';
        throw new DatabaseUnreachable(`the database at ${place} did not answer${waited}: ${reason}; check ${variables}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The driver's error code (ECONNREFUSED, ENOTFOUND, ETIMEDOUT…), else its message; never a credential. */
function reasonOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && e.code) return e.code;
  // An AggregateError (several addresses of one name, all refused) has no code of its own.
  const inner = (error as { errors?: unknown[] })?.errors?.[0];
  if (inner) return reasonOf(inner);
  return typeof e?.message === 'string' && e.message ? e.message : String(error);
}
