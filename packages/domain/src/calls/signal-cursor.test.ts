import { describe, expect, it } from 'vitest';
import { parseLastPoll } from './call-service.js';
import { decodeSignalCursor, encodeSignalCursor } from './signal-cursor.js';

describe('signal cursor', () => {
  it('writes a signal id in the wire form of a time and reads it back', () => {
    for (const id of [0, 1, 59, 86_400, 123_456_789, 2 ** 31]) {
      const cursor = encodeSignalCursor(id);
      expect(cursor).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(parseLastPoll(cursor)).toBe(cursor);
      expect(decodeSignalCursor(cursor)).toEqual({ afterId: id });
    }
    expect(encodeSignalCursor(61)).toBe('1000-01-01 00:01:01');
  });

  it('reads a real time as a time', () => {
    expect(decodeSignalCursor('2026-11-27 10:00:00')).toEqual({ afterTime: '2026-11-27 10:00:00' });
    expect(decodeSignalCursor('1999-12-31 23:59:59')).toEqual({ afterTime: '1999-12-31 23:59:59' });
  });
});
