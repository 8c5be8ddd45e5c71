// Load benchmarks: Plaza (its built server, in its own process) against bare node:http + mysql2 floors.
import { spawn } from 'node:child_process';
import { Agent as HttpAgent, createServer, get as httpGet } from 'node:http';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { createPool } from 'mysql2';
import { scenariosOf } from './lib.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const baseUrl = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
const mainDatabase = process.env.BENCH_DATABASE ?? 'plaza_bench';
const duration = Number(process.env.BENCH_DURATION ?? 6);
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const filter = process.argv[2] ?? '';
// Plaza runs as `npm start` runs it unless told otherwise (issue 30): the request log at info, written
// to a file as a service manager would take it (not to a pipe the load generator's process reads), over
// TCP, one process. BENCH_PLAZA_LOG_LEVEL=warn (no request log), BENCH_MYSQL_SOCKET and BENCH_WORKERS
// give the other rows; the header of each result names the configuration.
const plazaLogLevel = process.env.BENCH_PLAZA_LOG_LEVEL || 'info';
const plazaWorkers = Math.max(1, Number(process.env.BENCH_WORKERS ?? 1));

// BENCH_MYSQL_SOCKET: Plaza (DB_SOCKET) and the floors reach the server through its Unix socket.
const socketPath = process.env.BENCH_MYSQL_SOCKET || undefined;
const conn = {
  host: baseUrl.hostname,
  port: Number(baseUrl.port || 3306),
  user: decodeURIComponent(baseUrl.username || 'root'),
  password: decodeURIComponent(baseUrl.password),
  ...(socketPath ? { socketPath } : {}),
};

// Every rate-limit group, read from the domain: the benchmark measures the work, never the limiter's
// refusals (which it would otherwise count as throughput).
const { RATE_LIMIT_GROUPS } = await import(pathToFileURL(join(root, 'packages/domain/dist/index.js')).href);
const RAISED_LIMITS = RATE_LIMIT_GROUPS.map((g) => `${g}=1000000000`).join(',');

/**
 * Loads `url` as fast as it answers, after `warmup` seconds of the same load that are not measured:
 * the JIT compiles each server's request path first, Plaza's and the floors' alike, rather than
 * during the seconds counted. Every answer that is not a 2xx, and every connection error or timeout,
 * is counted, the warm-up's included.
 */
export async function load(url, { headers = {}, method = 'GET', body, connections: c = connections, seconds = duration } = {}) {
  const result = await autocannon({
    url,
    connections: c,
    duration: seconds,
    headers,
    method,
    body,
    ...(warmup > 0 ? { warmup: { connections: c, duration: warmup } } : {}),
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx + (result.warmup?.non2xx ?? 0),
    errors: result.errors + result.timeouts + (result.warmup ? result.warmup.errors + result.warmup.timeouts : 0),
  };
}

/**
 * GETs `url` once every `everyMs` for `seconds`, each request timed on its own, as an occasional
 * client would: the latency a cheap request sees while something else loads the server. (autocannon's
 * rate option sends each second's requests in a burst, which measures its own queue.)
 */
export async function probe(url, { everyMs = 10, seconds = duration } = {}) {
  const agent = new HttpAgent({ keepAlive: true });
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const one = () =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint();
      httpGet(url, { agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
          resolve();
        });
      }).on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const inFlight = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    inFlight.push(one());
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return { rps: Math.round(latencies.length / seconds), p50: at(0.5), p99: at(0.99), total: latencies.length, non2xx, errors };
}

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * Starts `apps/server/dist/main.js` in a child process (so autocannon does not share its event loop),
 * on `database`, and resolves once `workers` processes said they listen. Lines logged at error level
 * are counted: a scenario fails on any.
 */
export async function startServer(database, env = {}, workers = plazaWorkers, nodeArgs = []) {
  const port = await freePort();
  mkdirSync(join(tmpdir(), 'plaza-bench-logs'), { recursive: true });
  const logPath = join(tmpdir(), 'plaza-bench-logs', `plaza-${port}.log`);
  const logFd = openSync(logPath, 'w');
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      DB_HOST: conn.host,
      DB_PORT: String(conn.port),
      ...(socketPath ? { DB_SOCKET: socketPath } : {}),
      DB_USER: conn.user,
      DB_PASSWORD: conn.password,
      DB_NAME: database,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Its own address: the floors that write Plaza's JSON byte for byte name the same actor URLs.
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: plazaLogLevel,
      BCRYPT_COST: '4',
      API_DATA_DIR: join(tmpdir(), 'plaza-bench-data'),
      API_RATE_LIMITS: RAISED_LIMITS,
      // The login scenario signs one account in at full speed (docs/decisions/0102 limits that per account).
      API_LOGIN_ACCOUNT_LIMIT: '1000000',
      API_RATE_LIMIT_STORE: 'memory',
      API_WORKERS: String(workers),
      ...env,
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  // The log file is read, not piped: its lines are scanned when the runner asks for the error lines.
  let offset = 0;
  let partial = '';
  let listening = 0;
  const found = [];
  const scan = () => {
    const size = statSync(logPath).size;
    if (size <= offset) return;
    const fd = openSync(logPath, 'r');
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    closeSync(fd);
    offset = size;
    const lines = (partial + buffer.toString()).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      // The start line of each worker, JSON, written whatever LOG_LEVEL (apps/server/src/main.ts).
      if (line.includes('"msg":"Plaza ready"')) listening += 1;
      if (/"level":(50|60)/.test(line)) found.push(line.slice(0, 500));
    }
  };
  const server = {
    url: `http://127.0.0.1:${port}`,
    child,
    logPath,
    get errorLines() {
      scan();
      return found;
    },
  };
  await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      scan();
      if (listening >= workers) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`Plaza exited (${code}) before listening:\n${readFileSync(logPath, 'utf8').slice(-20_000)}`));
    });
  });
  server.stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return server;
}

async function ensureDatabase(name) {
  const admin = await mysql.createConnection(conn);
  await admin.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
}

/** One Plaza process and one floor pool per database, started when a scenario first needs them. */
const environments = new Map();
async function environment(database) {
  let env = environments.get(database);
  if (!env) {
    await ensureDatabase(database);
    const server = await startServer(database);
    const pool = createPool({ ...conn, database, connectionLimit: 10, timezone: 'Z', dateStrings: true }).promise();
    env = { server, pool };
    environments.set(database, env);
  }
  return env;
}

/**
 * Serves a scenario's floor on a bare node:http server in a process of its own (floor-process.js),
 * as Plaza runs in its own, for the duration of `work`. The seeded context goes to it as JSON; it
 * opens its own pool. A floor in the load generator's process answered 10–30% faster than the same
 * floor in its own (docs/decisions/0076): it skipped the wake-up of another process per request.
 */
async function withFloor(file, scenarioName, floorName, ctx, work) {
  const seeded = Object.fromEntries(Object.entries(ctx).filter(([k, v]) => typeof v !== 'function' && k !== 'pool'));
  const child = spawn(process.execPath, [join(here, 'floor-process.js')], {
    env: {
      ...process.env,
      BENCH_FLOOR: JSON.stringify({ file, scenario: scenarioName, floor: floorName, conn, database: ctx.database, ctx: seeded }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const m = /floor listening on (\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`floor ${floorName} exited (${code}):\n${output}`)));
  });
  try {
    return await work(`http://127.0.0.1:${port}/`);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of each figure over the rounds; every failure of every round is counted. */
function medianRun(runs) {
  const of = (key) => Math.round(median(runs.map((r) => r[key])));
  const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
  return { rps: of('rps'), p50: of('p50'), p99: of('p99'), total: sum('total'), non2xx: sum('non2xx'), errors: sum('errors') };
}

function failuresOf(label, r) {
  const out = [];
  if (r.non2xx) out.push(`${label}: ${r.non2xx} non-2xx answers`);
  if (r.errors) out.push(`${label}: ${r.errors} connection errors or timeouts`);
  if (!r.total) out.push(`${label}: no answer at all`);
  return out;
}

async function runScenario(scenario) {
  const database = scenario.database ?? `${mainDatabase}${scenario.databaseSuffix ?? ''}`;
  // `embedded: true`: the scenario starts its own Plaza on SQLite, and no MariaDB-backed one runs beside it.
  const { server, pool } = scenario.embedded ? { server: null, pool: null } : await environment(database);
  const ctx = { plazaUrl: server?.url, pool, scale, database, startServer, load, probe };
  // For a scenario that measures its own way: serves one of its floors in a process of its own.
  ctx.withFloor = (floorName, floorCtx, work) => withFloor(scenario.file, scenario.name, floorName, floorCtx, work);
  process.stdout.write(`\n${scenario.name}: seeding… `);
  const t0 = Date.now();
  Object.assign(ctx, await scenario.seed(ctx));
  process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  // `BENCH_SEED_ONLY=1`: write the seeds now (they are reused), measure later on a quieter machine.
  if (process.env.BENCH_SEED_ONLY) return { scenario: scenario.name, seeded: true, failures: [], floors: {}, ratios: {}, plaza: null };

  // A scenario may measure in its own way (several servers, concurrent loads): it returns its row.
  if (scenario.run) {
    const row = await scenario.run(ctx);
    await scenario.cleanup?.(ctx);
    console.log(row.lines.map((l) => `  ${l}`).join('\n'));
    if (row.failures.length) console.log(`  FAILED: ${row.failures.join('; ')}`);
    return { scenario: scenario.name, ...row };
  }

  const req = scenario.plaza(ctx);
  const errorsBefore = server.errorLines.length;
  // Plaza and each floor in turn, `rounds` times: a ratio is taken within each round, from loads a few
  // seconds apart, and the median round's is reported, so that the machine's drift over a run (other
  // tenants, MariaDB's purge after a write scenario) weighs on both sides of a ratio alike.
  const plazaRuns = [];
  const floorRuns = Object.fromEntries(Object.keys(scenario.floors).map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    plazaRuns.push(await load(`${server.url}${req.path}`, { headers: req.headers, method: req.method, body: req.body }));
    for (const floorName of Object.keys(scenario.floors)) {
      floorRuns[floorName].push(await withFloor(scenario.file, scenario.name, floorName, ctx, (url) => load(url)));
    }
  }
  await scenario.cleanup?.(ctx);
  const plaza = medianRun(plazaRuns);
  const floors = Object.fromEntries(Object.entries(floorRuns).map(([n, runs]) => [n, medianRun(runs)]));
  const failures = [...failuresOf('plaza', plaza), ...Object.entries(floors).flatMap(([n, r]) => failuresOf(n, r))];
  const logged = server.errorLines.length - errorsBefore;
  if (logged) failures.push(`plaza logged ${logged} errors, e.g. ${server.errorLines.at(-1)}`);
  const ratios = Object.fromEntries(
    Object.entries(floorRuns).map(([n, runs]) => [
      n,
      {
        rps: +median(runs.map((f, i) => plazaRuns[i].rps / f.rps)).toFixed(2),
        p99: +median(runs.map((f, i) => plazaRuns[i].p99 / Math.max(f.p99, 1))).toFixed(2),
      },
    ]),
  );
  console.log(`  plaza ${plaza.rps} req/s p50 ${plaza.p50} ms p99 ${plaza.p99} ms (non-2xx ${plaza.non2xx}, errors ${plaza.errors})`);
  for (const [n, f] of Object.entries(floors)) {
    console.log(
      `  ${n} ${f.rps} req/s p50 ${f.p50} ms p99 ${f.p99} ms — plaza ${ratios[n].rps}× its throughput, ${ratios[n].p99}× its p99`,
    );
  }
  if (ctx.note) console.log(`  ${ctx.note}`);
  if (failures.length) console.log(`  FAILED: ${failures.join('; ')}`);
  return { scenario: scenario.name, database, plaza, floors, ratios, failures, note: ctx.note ?? null };
}

/**
 * The database server's memory for its pages against the size of each bench database: a database
 * larger than the buffer pool is partly read from disk, the floors' reads as Plaza's, which slows both
 * at that size (the 1M-against-100k comparisons among them). Null when no MySQL server answers: the
 * SQLite scenario needs none.
 */
async function serverFacts() {
  const c = await mysql.createConnection(conn).catch(() => null);
  if (!c) return null;
  try {
    const [[server]] = await c.query('SELECT VERSION() AS version, @@innodb_buffer_pool_size AS pool');
    const [sizes] = await c.query(
      'SELECT table_schema AS name, SUM(data_length + index_length) AS size FROM information_schema.tables WHERE table_schema LIKE ? GROUP BY table_schema ORDER BY table_schema',
      [`${mainDatabase}%`],
    );
    const mb = (bytes) => Math.round(Number(bytes) / 2 ** 20);
    return {
      version: server.version,
      bufferPoolMb: mb(server.pool),
      databasesMb: Object.fromEntries(sizes.map((d) => [d.name, mb(d.size)])),
    };
  } finally {
    await c.end();
  }
}

/** Said in the header when a bench database outgrows the buffer pool: its figures then include reads from disk (bench/README). */
function poolWarning({ bufferPoolMb, databasesMb }) {
  const larger = Object.entries(databasesMb)
    .filter(([, size]) => size > bufferPoolMb)
    .map(([name]) => name);
  return larger.length ? ` (smaller than ${larger.join(' and ')}, whose figures include reads from disk)` : '';
}

function markdown(report, meta) {
  const server = meta.server
    ? `MariaDB/MySQL ${meta.server.version}, buffer pool ${meta.server.bufferPoolMb} MB${poolWarning(meta.server)}, databases ${Object.entries(
        meta.server.databasesMb,
      )
        .map(([name, size]) => `${name} ${size} MB`)
        .join(', ')}`
    : 'no MySQL server reached';
  const lines = [
    `Measured ${meta.at} with \`${meta.command}\`: ${meta.duration} s per load after ${meta.warmup} s of warm-up, ${meta.rounds} rounds (medians), ${meta.connections} connections, scale ${meta.scale}; ` +
      `${meta.cpus} cores, load average ${meta.loadBefore.join(' / ')} before and ${meta.loadAfter.join(' / ')} after; ` +
      `Plaza ${meta.plaza}; ` +
      `${server}.`,
    '',
    '| scenario | Plaza req/s | p50 / p99 ms | floor | floor req/s | floor p99 ms | ratio req/s | ratio p99 | result |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of report) {
    const verdict = row.failures.length ? `FAILED (${row.failures.join('; ').replace(/\s+/g, ' ').slice(0, 300)})` : 'ok';
    if (!row.plaza && !row.table) {
      lines.push(`| ${row.scenario} | — | — | — | — | — | — | — | ${verdict} |`);
      continue;
    }
    if (row.table) {
      for (const t of row.table) lines.push(`| ${t.join(' | ')} | ${verdict} |`);
      continue;
    }
    for (const [n, f] of Object.entries(row.floors)) {
      lines.push(
        `| ${row.scenario} | ${row.plaza.rps} | ${row.plaza.p50} / ${row.plaza.p99} | ${n} | ${f.rps} | ${f.p99} | ${row.ratios[n].rps} | ${row.ratios[n].p99} | ${verdict} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  const loadBefore = loadavg().map((v) => v.toFixed(2));
  const files = readdirSync(join(here, 'scenarios'))
    .filter((f) => f.endsWith('.js'))
    .sort();
  const report = [];
  try {
    for (const file of files) {
      const module = await import(pathToFileURL(join(here, 'scenarios', file)).href);
      for (const listed of scenariosOf(module)) {
        // The floors' processes import the scenario again from its file.
        const scenario = { ...listed, file: join(here, 'scenarios', file) };
        if (filter && !scenario.name.includes(filter)) continue;
        try {
          report.push(await runScenario(scenario));
        } catch (error) {
          console.log(`  FAILED: ${error.stack ?? error}`);
          report.push({ scenario: scenario.name, failures: [String(error.message ?? error)], floors: {}, ratios: {}, plaza: null });
        }
      }
    }
  } finally {
    for (const { server, pool } of environments.values()) {
      await server.stop();
      await pool.end();
    }
  }
  if (process.env.BENCH_SEED_ONLY) {
    console.log('\nSeeded; nothing measured.');
    return;
  }
  const meta = {
    at: new Date().toISOString(),
    command: `${socketPath ? `BENCH_MYSQL_SOCKET=${socketPath} ` : ''}${process.env.BENCH_PLAZA_LOG_LEVEL ? `BENCH_PLAZA_LOG_LEVEL=${plazaLogLevel} ` : ''}${process.env.BENCH_WORKERS ? `BENCH_WORKERS=${plazaWorkers} ` : ''}npm run bench${filter ? ` -- ${filter}` : ''}`,
    plaza: `LOG_LEVEL=${plazaLogLevel} (log to a file), ${socketPath ? 'Unix socket' : 'TCP'}, API_WORKERS=${plazaWorkers}`,
    duration,
    warmup,
    rounds,
    connections,
    scale,
    cpus: cpus().length,
    loadBefore,
    loadAfter: loadavg().map((v) => v.toFixed(2)),
    server: await serverFacts(),
  };
  const stamp = meta.at.replace(/[:.]/g, '-');
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', `${stamp}.json`), JSON.stringify({ ...meta, report }, null, 2));
  const table = markdown(report, meta);
  writeFileSync(join(here, 'results', `${stamp}.md`), `${table}\n`);
  console.log(`\n${table}\n\nWritten to bench/results/${stamp}.{json,md}`);
  const failed = report.filter((r) => r.failures.length);
  if (failed.length) {
    console.log(`\n${failed.length} scenario(s) FAILED: ${failed.map((r) => r.scenario).join(', ')}`);
    process.exitCode = 1;
  }
}

// Run when started as a script; bench/cpu-per-request.js imports startServer without running the scenarios.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
