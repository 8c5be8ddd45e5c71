import { fromTimestamp, type Timestamp } from '../shared/time.js';

/**
 * Where a participant's next poll resumes (docs/decisions/0151). The app echoes the poll's `timestamp`
 * back verbatim as `last_poll` and never reads it otherwise (contract §32), so the value is opaque: it
 * carries the id of the last signal the poll covered, written in the `YYYY-MM-DD HH:MM:SS` form the
 * wire has always had, as that many seconds after 1000-01-01 00:00:00. Ids are far below the billions
 * of seconds before 1970, so such a cursor can never be mistaken for a real time; a real time (from a
 * client of the old server, or typed by hand) is still read as one.
 */
export type SignalCursor = { afterId: number } | { afterTime: Timestamp };

const ORIGIN_MS = Date.UTC(1000, 0, 1);
/** Real times are after this; cursors before it (ids up to about 3·10^10). */
const LAST_CURSOR_MS = Date.UTC(1970, 0, 1);

export function encodeSignalCursor(lastSignalId: number): Timestamp {
  const date = new Date(ORIGIN_MS + lastSignalId * 1000);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function decodeSignalCursor(value: Timestamp): SignalCursor {
  const ms = fromTimestamp(value).getTime();
  if (ms < LAST_CURSOR_MS && ms >= ORIGIN_MS) return { afterId: Math.round((ms - ORIGIN_MS) / 1000) };
  return { afterTime: value };
}
