// Load benchmarks: Plaza against a bare node:http + mysql2 floor running the same SQL.
import { createServer } from 'node:http';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { createPool } from 'mysql2';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const baseUrl = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
const database = process.env.BENCH_DATABASE ?? 'plaza_bench';
const duration = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const filter = process.argv[2] ?? '';

const conn = {
  host: baseUrl.hostname,
  port: Number(baseUrl.port || 3306),
  user: decodeURIComponent(baseUrl.username || 'root'),
  password: decodeURIComponent(baseUrl.password),
};

async function load(url, headers, method = 'GET', body) {
  const result = await autocannon({ url, connections, duration, headers, method, body });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function main() {
  const admin = await mysql.createConnection(conn);
  await admin.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();

  process.env.DB_HOST = conn.host;
  process.env.DB_PORT = String(conn.port);
  process.env.DB_USER = conn.user;
  process.env.DB_PASSWORD = conn.password;
  process.env.DB_NAME = database;
  process.env.PORT = '0';
  process.env.HOST = '127.0.0.1';
  process.env.LOG_LEVEL = 'silent';
  process.env.BCRYPT_COST = '4';
  // The benchmark measures the work, not the limiter's refusals.
  process.env.API_RATE_LIMITS = 'auth=100000000,posts=100000000,comments=100000000,comment_reactions=100000000,messages=100000000,reactions=100000000,group_reactions=100000000,upload=100000000,export=100000000,calls=100000000,reads=100000000,default=100000000';
  process.env.API_RATE_LIMIT_STORE = 'memory';

  const server = await import(pathToFileURL(join(root, 'apps/server/dist/index.js')).href);
  const plaza = await server.startPlaza(server.loadConfig(), { jobs: false });
  const pool = createPool({ ...conn, database, connectionLimit: 10, timezone: 'Z', dateStrings: true }).promise();

  const files = readdirSync(join(here, 'scenarios')).filter((f) => f.endsWith('.js')).sort();
  const report = [];
  for (const file of files) {
    const scenario = await import(pathToFileURL(join(here, 'scenarios', file)).href);
    if (filter && !scenario.name.includes(filter)) continue;
    const ctx = { plazaUrl: plaza.url, pool, scale, container: plaza.container };
    process.stdout.write(`\n${scenario.name}: seeding… `);
    const t0 = Date.now();
    Object.assign(ctx, await scenario.seed(ctx));
    process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

    const floorServer = createServer((req, res) => {
      scenario.floor(ctx, req).then(
        (payload) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(payload));
        },
        (err) => {
          res.writeHead(500);
          res.end(String(err));
        },
      );
    });
    await new Promise((r) => floorServer.listen(0, '127.0.0.1', r));
    const floorUrl = `http://127.0.0.1:${floorServer.address().port}/`;

    const req = scenario.plaza(ctx);
    const plazaResult = await load(`${plaza.url}${req.path}`, req.headers, req.method, req.body);
    const floorResult = await load(floorUrl, {}, 'GET');
    floorServer.close();
    const row = {
      scenario: scenario.name,
      plaza: plazaResult,
      floor: floorResult,
      ratio_rps: +(plazaResult.rps / floorResult.rps).toFixed(2),
      ratio_p99: +(plazaResult.p99 / floorResult.p99).toFixed(2),
    };
    report.push(row);
    console.log(
      `  plaza ${plazaResult.rps} req/s p50 ${plazaResult.p50} ms p99 ${plazaResult.p99} ms (errors ${plazaResult.errors})\n` +
        `  floor ${floorResult.rps} req/s p50 ${floorResult.p50} ms p99 ${floorResult.p99} ms (errors ${floorResult.errors})\n` +
        `  ratio throughput ${row.ratio_rps}× floor, p99 ${row.ratio_p99}× floor`,
    );
  }
  await plaza.close();
  await pool.end();
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ duration, connections, scale, report }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
