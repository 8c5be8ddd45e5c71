import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

/** Messages between a worker that was scraped and the primary (prom-client's own ones go beside them). */
const ASK = 'metrics?';
const ANSWER = 'metrics';
/** Longer than prom-client's own 5 s wait for the workers, so that its error is the one we see. */
const WAIT_MS = 6_000;

interface MetricsMessage {
  plaza?: string;
  id?: number;
  text?: string;
  error?: string;
}

/**
 * In the node:cluster primary (API_WORKERS > 1): answers a worker's request for the instance's metrics
 * with every worker's figures, summed (or as each metric's aggregator says) by prom-client's
 * AggregatorRegistry. The primary serves no port, so a scrape reaches a worker, which asks here.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsMessage) => {
    if (message?.plaza !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ plaza: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ plaza: ANSWER, id: message.id, error: error.message }),
    );
  });
}

let nextId = 0;
const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
let listening = false;

/** In a worker: the instance's metrics, gathered by the primary. */
export function instanceMetrics(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: MetricsMessage) => {
      if (message?.plaza !== ANSWER || message.id === undefined) return;
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(`metrics of the workers: ${message.error}`));
      else pending?.resolve(message.text ?? '');
    });
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('metrics of the workers: the primary did not answer'));
    }, WAIT_MS);
    waiting.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    process.send?.({ plaza: ASK, id });
  });
}
