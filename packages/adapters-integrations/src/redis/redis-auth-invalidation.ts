import type { AuthChanges, AuthInvalidation } from '@plaza/domain/accounts';
import type { Redis } from 'ioredis';

/** More changes than this since a reader's cursor: it drops every session instead of listing them (as the database adapter). */
const MOST_LISTED = 1000;
/** Entries kept (about): a reader further behind than this drops every session. */
const KEPT = 100_000;

/** Stream ids `ms-seq` compared as numbers: true when `a` comes before `b`. */
function before(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am < bm || (am === bm && as < bs);
}

/**
 * The session-change signal (docs/decisions/0150, 0160) on a Redis stream, `<prefix>auth-changes`: a
 * publication is one XADD of the account's id, a cursor is the id of the last entry read, and
 * `changedSince` one XRANGE after it. Unlike a pub/sub channel, whose messages are lost to a subscriber
 * that is reconnecting, the stream keeps the port's promise: nothing missed, nothing repeated.
 *
 * Redis away: `changedSince` answers `everyone` (the process drops its cached sessions and reads them from
 * the database) instead of failing the request, and so does the first answer after an outage, since what
 * was published meanwhile may be lost; a reader whose cursor was trimmed away is told `everyone` too.
 */
export class RedisAuthInvalidation implements AuthInvalidation {
  private readonly stream: string;
  private failed = false;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.stream = `${prefix}auth-changes`;
  }

  async publish(userId: number): Promise<void> {
    await this.redis.xadd(this.stream, 'MAXLEN', '~', String(KEPT), '*', 'u', String(userId));
  }

  async changedSince(cursor: string | null): Promise<AuthChanges> {
    try {
      const answer = await this.read(cursor);
      if (!this.failed) return answer;
      this.failed = false;
      return { cursor: answer.cursor, userIds: [], everyone: true };
    } catch {
      this.failed = true;
      return { cursor: cursor ?? '0-0', userIds: [], everyone: true };
    }
  }

  private async read(cursor: string | null): Promise<AuthChanges> {
    if (cursor === null) {
      const last = await this.redis.xrevrange(this.stream, '+', '-', 'COUNT', 1);
      return { cursor: last[0]?.[0] ?? '0-0', userIds: [], everyone: false };
    }
    const entries = await this.redis.xrange(this.stream, `(${cursor}`, '+', 'COUNT', MOST_LISTED + 1);
    if (entries.length > MOST_LISTED || (await this.trimmedPast(cursor))) {
      const last = await this.redis.xrevrange(this.stream, '+', '-', 'COUNT', 1);
      return { cursor: last[0]?.[0] ?? cursor, userIds: [], everyone: true };
    }
    const userIds = entries.map(([, fields]) => Number(fields[1]));
    return { cursor: entries.length ? entries[entries.length - 1][0] : cursor, userIds, everyone: false };
  }

  /** Whether entries after `cursor` were trimmed away (Redis 7's max-deleted-entry-id). */
  private async trimmedPast(cursor: string): Promise<boolean> {
    let info: unknown[];
    try {
      info = (await this.redis.xinfo('STREAM', this.stream)) as unknown[];
    } catch {
      return false; // no stream yet: nothing was ever published, nothing trimmed
    }
    const at = info.indexOf('max-deleted-entry-id');
    const deleted = at >= 0 ? String(info[at + 1]) : '0-0';
    return before(cursor, deleted);
  }
}
