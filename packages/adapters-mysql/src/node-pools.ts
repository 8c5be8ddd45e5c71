import { createPool, type Pool, type PoolConnection, type PoolOptions } from 'mysql2';

/** One MySQL/MariaDB server: a Galera node, a primary or a replica. */
export interface DatabaseNode {
  host: string;
  port: number;
}

/** What Kysely's MysqlDialect (through serverPreparedPool) asks of a pool. */
export interface ConnectionSource {
  getConnection(callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void): void;
  end(callback: (error: NodeJS.ErrnoException | null) => void): void;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
]);

/**
 * Whether the node that gave `error` cannot serve now, so that the next one should: it does not
 * answer, it dropped the connection, it shuts down, or (1047, `ER_UNKNOWN_COM_ERROR`: "WSREP has not
 * yet prepared node for application use") it is a Galera node outside the primary component or still
 * catching up after a rejoin.
 */
export function isNodeUnusable(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; fatal?: boolean } | null;
  if (!e) return false;
  return (typeof e.code === 'string' && UNREACHABLE.has(e.code)) || e.errno === 1047 || e.fatal === true;
}

/** How long a node that failed is tried only after the others (then first again, once a probe passes). */
const SET_ASIDE_MS = 30_000;

/**
 * One mysql2 pool per node, in the order given (docs/decisions/0141): connections come from the first
 * node that answers. A node whose connection attempt fails, or whose statement fails as unusable
 * (above), is set aside for 30 s: the next node serves in the meantime, and only when every other node
 * fails too is a set-aside node tried again. Once its time is up it serves again after one
 * `select 1` on the connection it gives (a Galera node that rejoined answers 1047 until it has caught
 * up). Sticking to one node rather than spreading statements is what Galera wants: writes from one
 * instance then never conflict with each other at certification.
 */
export class NodePools implements ConnectionSource {
  private readonly pools: Pool[];
  private readonly setAsideAt: (number | undefined)[];
  private readonly watched = new WeakMap<PoolConnection, PoolConnection>();

  constructor(
    readonly nodes: readonly DatabaseNode[],
    options: Omit<PoolOptions, 'host' | 'port'>,
  ) {
    if (nodes.length === 0) throw new Error('NodePools needs at least one node');
    this.pools = nodes.map((node) => createPool({ ...options, host: node.host, port: node.port }));
    this.setAsideAt = nodes.map(() => undefined);
  }

  /** The index of the node the next connection comes from, when it answers. */
  get preferred(): number {
    return this.order()[0];
  }

  /** The pools, for their connection counts. */
  get all(): readonly Pool[] {
    return this.pools;
  }

  getConnection(callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void): void {
    this.acquire(this.order(), 0, callback);
  }

  end(callback: (error: NodeJS.ErrnoException | null) => void): void {
    let left = this.pools.length;
    let first: NodeJS.ErrnoException | null = null;
    for (const pool of this.pools) {
      pool.end((error) => {
        first ??= error ?? null;
        if (--left === 0) callback(first);
      });
    }
  }

  /** Nodes not set aside (in their order), then the set-aside ones, longest set aside first. */
  private order(): number[] {
    const now = Date.now();
    const ready: number[] = [];
    const aside: number[] = [];
    this.nodes.forEach((_, i) => {
      const at = this.setAsideAt[i];
      (at === undefined || now - at >= SET_ASIDE_MS ? ready : aside).push(i);
    });
    aside.sort((a, b) => (this.setAsideAt[a] ?? 0) - (this.setAsideAt[b] ?? 0));
    return [...ready, ...aside];
  }

  private setAside(i: number): void {
    this.setAsideAt[i] = Date.now();
  }

  private acquire(order: number[], k: number, callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void): void {
    const i = order[k];
    const next = (error: NodeJS.ErrnoException) => {
      this.setAside(i);
      if (k + 1 < order.length) this.acquire(order, k + 1, callback);
      else callback(error, undefined as never);
    };
    this.pools[i].getConnection((error, connection) => {
      if (error) return isNodeUnusable(error) ? next(error) : callback(error, connection);
      if (this.setAsideAt[i] === undefined) return callback(null, this.watch(connection, i));
      // A node back from being set aside serves once it answers a statement.
      connection.query('select 1', (probeError: NodeJS.ErrnoException | null) => {
        if (!probeError) {
          this.setAsideAt[i] = undefined;
          return callback(null, this.watch(connection, i));
        }
        connection.destroy();
        if (isNodeUnusable(probeError)) return next(probeError);
        callback(probeError, undefined as never);
      });
    });
  }

  /** The connection, with each statement's failure watched: an unusable node is set aside (and a 1047 connection closed). */
  private watch(connection: PoolConnection, i: number): PoolConnection {
    let proxy = this.watched.get(connection);
    if (proxy) return proxy;
    const observe = (callback: unknown) =>
      typeof callback !== 'function'
        ? callback
        : (error: (NodeJS.ErrnoException & { errno?: number; fatal?: boolean }) | null, ...rest: unknown[]) => {
            // mysql2 says "Can't add new command when connection is in closed state" with no code:
            // it is the connection lost, and answers 503 as such (not 500).
            if (error && error.fatal && !error.code) error.code = 'PROTOCOL_CONNECTION_LOST';
            if (error && isNodeUnusable(error)) {
              this.setAside(i);
              if (error.errno === 1047) connection.destroy();
            }
            return (callback as (...args: unknown[]) => unknown)(error, ...rest);
          };
    const wrapCall =
      (method: 'query' | 'execute') =>
      (...args: unknown[]) => {
        const last = args.length - 1;
        if (last >= 0) args[last] = observe(args[last]);
        return (connection[method] as (...a: unknown[]) => unknown)(...args);
      };
    const query = wrapCall('query');
    const execute = wrapCall('execute');
    proxy = new Proxy(connection, {
      get: (target, prop) => {
        if (prop === 'query') return query;
        if (prop === 'execute') return execute;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    this.watched.set(connection, proxy);
    return proxy;
  }
}
