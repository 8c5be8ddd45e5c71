export interface RateLimitCountersTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface LimitsTables {
  rate_limit_counters: RateLimitCountersTable;
}
