// CPU time per request of the Plaza process (issue 30, item 3): throughput on a loaded machine is noise,
// the server's own user+sys time per request is not. Starts Plaza as `npm start` runs it (bench/run.js's
// startServer: request log at info to a file, TCP, one process, rate limits raised) on a scratch
// database it creates and drops, drives a fixed number of requests with autocannon per scenario, and
// reads the process's utime+stime from /proc/<pid>/stat around each load.
//
//   node bench/cpu-per-request.js                  # 3 repeats of 20,000 requests, 32 connections
//   CPU_REQUESTS=5000 CPU_REPEATS=1 node bench/cpu-per-request.js
//   CPU_SCENARIOS=profile,create-post node bench/cpu-per-request.js   # those scenarios only
//   CPU_PROFILE=create-post node bench/cpu-per-request.js   # that scenario only, under --cpu-prof (os.tmpdir()/plaza-bench-profiles)
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { login } from './lib.js';
import { startServer } from './run.js';

const requests = Number(process.env.CPU_REQUESTS ?? 20_000);
const repeats = Number(process.env.CPU_REPEATS ?? 3);
const connections = Number(process.env.CPU_CONNECTIONS ?? 32);
const database = process.env.CPU_DATABASE ?? 'plaza_fixedcost';
const url = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
const admin = await mysql.createConnection({
  host: url.hostname,
  port: Number(url.port || 3306),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
});
await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);

const TICK = 100; // clock ticks per second (getconf CLK_TCK) on Linux
/** The process's user + system CPU, in µs. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICK;
}

const load = (server, request, amount) =>
  new Promise((resolve, reject) => {
    const { path, ...rest } = request;
    autocannon({ url: `${server.url}${path}`, connections, amount, ...rest }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx || result.errors) return reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result);
    });
  });

const profileArgs = process.env.CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(tmpdir(), 'plaza-bench-profiles')}`] : [];
const server = await startServer(database, {}, 1, profileArgs);
try {
  const me = await login(server.url, 'cpu_me');
  const peer = await login(server.url, 'cpu_peer');
  const auth = { authorization: `Bearer ${me.token}` };
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${server.url}/api/v1/messages.php`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: peer.userId, content: `thread message ${i}` }),
    });
    if (!res.ok) throw new Error(`seed send: ${res.status} ${await res.text()}`);
  }
  const scenarios = {
    profile: { path: '/api/v1/users.php', headers: auth },
    'message-thread': { path: `/api/v1/messages.php?user_id=${peer.userId}&page=1`, headers: auth },
    'create-post': {
      path: '/api/v1/posts.php',
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Benchmark post #bench', tags: ['load'] }),
    },
  };
  const only = (process.env.CPU_SCENARIOS || process.env.CPU_PROFILE || '').split(',').filter(Boolean);
  const results = {};
  for (const [name, request] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    await load(server, request, Math.min(requests, 5_000)); // the JIT's warm-up, not counted
    const perRequest = [];
    for (let r = 0; r < repeats; r++) {
      const before = cpuOf(server.child.pid);
      await load(server, request, requests);
      perRequest.push((cpuOf(server.child.pid) - before) / requests);
    }
    const sorted = [...perRequest].sort((a, b) => a - b);
    results[name] = { median: sorted[Math.floor(sorted.length / 2)], runs: perRequest.map((v) => Math.round(v)) };
    console.log(`${name}: median ${Math.round(results[name].median)} µs/request (${results[name].runs.join(', ')})`);
  }
  if (server.errorLines.length) throw new Error(`Plaza logged errors:\n${server.errorLines.join('\n')}`);
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  console.log(JSON.stringify({ requests, repeats, connections, load1, results }));
} finally {
  await server.stop();
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.end();
}
