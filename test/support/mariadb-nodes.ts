import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection, type Connection } from 'mysql2/promise';

const run = promisify(execFile);

export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';
/**
 * As root, the servers run as `mysql`: Galera's rsync state transfer starts an rsync daemon that, run
 * by root, drops to `nobody` and cannot write a root-owned data directory.
 */
const AS_USER = process.getuid?.() === 0 ? ['--user=mysql'] : [];

/** Why the cluster suites cannot run here, or null when MariaDB, galera-4 and rsync are installed. */
export function clusterToolsMissing(): string | null {
  const missing = [MARIADBD, INSTALL_DB, GALERA_PROVIDER, '/usr/bin/rsync', '/usr/bin/wsrep_sst_rsync'].filter((f) => !existsSync(f));
  return missing.length ? `not installed: ${missing.join(', ')} (apt-get install galera-4 rsync mariadb-server)` : null;
}

/**
 * MariaDB servers of a test's own: each its own --datadir under one temporary directory (prepared once
 * by mariadb-install-db, then copied), its own loopback port, started and stopped by the test. Never
 * the shared server on 3306. `close()` stops every process it started and removes the directory.
 */
export class MariaDbNodes {
  readonly dir = mkdtempSync(join(tmpdir(), 'plaza-nodes-'));
  constructor() {
    // The servers' user (mysql, under root) must reach the data directories inside.
    chmodSync(this.dir, 0o755);
  }
  private template: string | null = null;
  private readonly processes = new Map<string, ChildProcess>();

  /** A fresh data directory named `name`, with the system tables in it. */
  async dataDir(name: string): Promise<string> {
    if (!this.template) {
      this.template = join(this.dir, 'template');
      await run(INSTALL_DB, [
        '--no-defaults',
        `--datadir=${this.template}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...AS_USER,
      ]);
    }
    const dir = join(this.dir, name);
    await run('cp', ['-a', this.template, dir]);
    return dir;
  }

  /** Starts mariadbd on `port` over `datadir` with `options` (without the leading --), and waits until it answers. */
  async start(name: string, port: number, datadir: string, options: string[], timeoutMs = 90_000): Promise<void> {
    const args = [
      '--no-defaults',
      ...AS_USER,
      `--datadir=${datadir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(datadir, 'mysqld.sock')}`,
      `--pid-file=${join(datadir, 'mysqld.pid')}`,
      `--log-error=${join(datadir, 'error.log')}`,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=64M',
      '--innodb-flush-log-at-trx-commit=2',
      '--max-connections=300',
      ...options.map((o) => `--${o}`),
    ];
    const child = spawn(MARIADBD, args, { stdio: 'ignore' });
    this.processes.set(name, child);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mariadbd ${name} exited (${child.exitCode}): ${this.log(name, datadir)}`);
      try {
        const c = await this.connect(port);
        await c.end();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`mariadbd ${name} did not answer on ${port}: ${this.log(name, datadir)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** The last lines of a node's error log, for failure messages. */
  log(_name: string, datadir: string): string {
    const file = join(datadir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
  }

  /** Stops a node: SIGKILL (a crash) or SIGTERM (a clean shutdown); resolves once the process is gone. */
  async stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.processes.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await gone;
    clearTimeout(timer);
  }

  connect(port: number, database?: string): Promise<Connection> {
    return createConnection({ host: '127.0.0.1', port, user: 'root', password: '', database, connectTimeout: 2000, dateStrings: true });
  }

  /** Runs one statement on the server on `port` and returns its rows. */
  async query<T = Record<string, unknown>>(port: number, statement: string, params: unknown[] = [], database?: string): Promise<T[]> {
    const c = await this.connect(port, database);
    try {
      const [rows] = await c.query(statement, params);
      return rows as T[];
    } finally {
      await c.end();
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((name) => this.stop(name, 'SIGKILL')));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Three Galera nodes on loopback (docs/decisions/0141, operations.md "Galera on this machine kind"). */
export class GaleraCluster {
  readonly nodes: MariaDbNodes = new MariaDbNodes();
  private readonly dirs: string[] = [];

  constructor(
    /** The nodes' SQL ports. */
    readonly ports: number[] = [3311, 3312, 3313],
    /** Group communication ports; IST takes each plus 10, SST (rsync) each plus 20. */
    readonly groupPorts: number[] = [4571, 4572, 4573],
  ) {}

  private options(i: number, bootstrap: boolean): string[] {
    const g = this.groupPorts[i];
    return [
      'wsrep-on=ON',
      `wsrep-provider=${GALERA_PROVIDER}`,
      'wsrep-cluster-name=plaza_test',
      `wsrep-node-name=node${i + 1}`,
      `wsrep-cluster-address=gcomm://${this.groupPorts.map((p) => `127.0.0.1:${p}`).join(',')}`,
      `wsrep-node-address=127.0.0.1:${g}`,
      `wsrep-node-incoming-address=127.0.0.1:${this.ports[i]}`,
      `wsrep-sst-receive-address=127.0.0.1:${g + 20}`,
      'wsrep-sst-method=rsync',
      `wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${g};ist.recv_addr=127.0.0.1:${g + 10};gcache.size=64M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT6S`,
      'wsrep-slave-threads=2',
      'binlog-format=ROW',
      'innodb-autoinc-lock-mode=2',
      'default-storage-engine=InnoDB',
      ...(bootstrap ? ['wsrep-new-cluster'] : []),
    ];
  }

  /** Prepares three data directories and starts the nodes one after the other, the first bootstrapping the cluster. */
  async start(): Promise<void> {
    for (let i = 0; i < this.ports.length; i++) this.dirs.push(await this.nodes.dataDir(`node${i + 1}`));
    for (let i = 0; i < this.ports.length; i++) {
      await this.nodes.start(`node${i + 1}`, this.ports[i], this.dirs[i], this.options(i, i === 0));
      await this.waitSynced(i);
    }
  }

  /** Stops node i (0-based): SIGKILL by default, as a crash. */
  stop(i: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return this.nodes.stop(`node${i + 1}`, signal);
  }

  /** Starts node i again over its data directory: it rejoins and catches up (IST, or SST after a crash). */
  async rejoin(i: number): Promise<void> {
    await this.nodes.start(`node${i + 1}`, this.ports[i], this.dirs[i], this.options(i, false), 120_000);
    await this.waitSynced(i);
  }

  /** Waits until node i is Synced in a primary component of every node started. */
  async waitSynced(i: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const rows = await this.nodes.query<{ Variable_name: string; Value: string }>(
          this.ports[i],
          "show status where variable_name in ('wsrep_local_state_comment', 'wsrep_cluster_status', 'wsrep_ready')",
        );
        const status = Object.fromEntries(rows.map((r) => [r.Variable_name, r.Value]));
        if (status.wsrep_local_state_comment === 'Synced' && status.wsrep_cluster_status === 'Primary' && status.wsrep_ready === 'ON')
          return;
      } catch {
        /* not answering yet */
      }
      if (Date.now() > deadline) throw new Error(`node${i + 1} did not sync: ${this.nodes.log(`node${i + 1}`, this.dirs[i])}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async status(i: number, name: string): Promise<string | undefined> {
    const rows = await this.nodes.query<{ Value: string }>(this.ports[i], 'show status like ?', [name]);
    return rows[0]?.Value;
  }

  close(): Promise<void> {
    return this.nodes.close();
  }
}
