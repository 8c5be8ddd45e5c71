/**
 * Stored timestamps are UTC strings in the spec's `YYYY-MM-DD HH:MM:SS` form. The same text sorts and
 * compares correctly on MySQL DATETIME and on SQLite, so no dialect-specific date functions are needed.
 */
export type Timestamp = string;

export function toTimestamp(date: Date): Timestamp {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function fromTimestamp(ts: Timestamp): Date {
  return new Date(ts.replace(' ', 'T') + 'Z');
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
