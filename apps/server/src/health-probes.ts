import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HealthCheck } from '@plaza/adapters-http';

/** Where the server is in its life. */
export type Phase = 'starting' | 'serving' | 'draining';

const LIVE = '/health/live';
const READY = '/health/ready';

/** Whether the request is for one of the probes (any query string ignored). */
export function isProbe(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?', 1)[0];
  return path === LIVE || path === READY;
}

/**
 * The orchestrator's probes (docs/decisions/0101), answered by the HTTP server itself, before the
 * application: they work while the database is awaited and migrations run, and they are neither
 * rate-limited nor written to the request log (a probe every few seconds would drown it).
 * - `/health/live`: 200 as long as the process answers at all. Restart only when this fails.
 * - `/health/ready`: 200 when the database answers, the migrations are done and the server is not
 *   shutting down; 503 with `code` `starting`, `database_unavailable` or `shutting_down` otherwise.
 *   Send traffic only while this answers 200.
 * `/health-public.php` stays as it was (the application's own report).
 */
export async function answerProbe(
  req: IncomingMessage,
  res: ServerResponse,
  phase: () => Phase,
  health: HealthCheck | null,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const message = 'Method not allowed: GET or HEAD';
    return send(req, res, 405, { success: false, error: message, message, code: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
  }
  if ((req.url ?? '').split('?', 1)[0] === LIVE) return send(req, res, 200, { success: true, status: 'live' });
  if (phase() === 'starting' || !health)
    return refuse(req, res, 'starting', 'Plaza is starting (waiting for the database or running migrations)');
  if (phase() === 'draining') return refuse(req, res, 'shutting_down', 'Plaza is shutting down');
  const report = await health.check();
  // The shutdown may have begun while the database answered.
  if (phase() !== 'serving') return refuse(req, res, 'shutting_down', 'Plaza is shutting down');
  if (report.status !== 'ok') return refuse(req, res, 'database_unavailable', 'The database is unreachable', { database: report.database });
  return send(req, res, 200, { success: true, status: 'ready', database: report.database });
}

function refuse(req: IncomingMessage, res: ServerResponse, code: string, message: string, more: object = {}): void {
  send(req, res, 503, { success: false, error: message, message, code, status: code, ...more }, { 'Retry-After': '1' });
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : json);
}
