import { token } from './token.js';
/** Time source. Services never call `new Date()` themselves so tests can move time. */
export interface Clock {
  now(): Date;
}
export const Clock = token<Clock>('Clock');

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that only moves when told to: for expiry, typing and auto-delete tests. */
export class ManualClock implements Clock {
  private current: Date;
  constructor(start: Date | string = '2026-01-01T12:00:00Z') {
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
