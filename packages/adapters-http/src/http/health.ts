export interface HealthReport {
  status: 'ok' | 'degraded';
  timestamp: string;
  database: { reachable: boolean; dialect: string };
}

/** What /health-public.php reports: 200 when the database answers, 503 otherwise. */
export interface HealthCheck {
  check(): Promise<HealthReport>;
}
