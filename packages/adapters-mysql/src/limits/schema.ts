export interface RateLimitCountersTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface LimitsTables {
  rate_limit_counters: RateLimitCountersTable;
}

declare module '../database.js' {
  /** The limits tables join the database type when this module is loaded. */
  interface Database extends LimitsTables {}
}
