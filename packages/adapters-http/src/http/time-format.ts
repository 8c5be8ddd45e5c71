import type { Timestamp } from '@plaza/domain';

export type TimeFormatter = (ts: Timestamp | null) => string | null;

/**
 * Timestamps are stored in UTC and emitted as `YYYY-MM-DD HH:MM:SS` in the configured zone
 * (API_TIMEZONE), the form every client parser reads.
 */
export function createTimeFormatter(timeZone: string): TimeFormatter {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return (ts) => ts;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (ts) => {
    if (ts === null) return null;
    const p = Object.fromEntries(parts.formatToParts(new Date(ts.replace(' ', 'T') + 'Z')).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
}
