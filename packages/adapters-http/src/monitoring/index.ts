export * from './metrics.js';
export type { MetricsEndpoint } from './metrics-endpoint.js';
export { serveClusterMetrics } from './cluster-metrics.js';
