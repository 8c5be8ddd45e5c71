// A floor served in a process of its own, as Plaza is (run.js's withFloor starts it): the load
// generator's process then holds neither server, so both pay the same cross-process hand-over per
// request and neither shares autocannon's event loop (docs/decisions/0076).
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createPool } from 'mysql2';
import { scenariosOf } from './lib.js';

const { file, scenario, floor, conn, database, ctx } = JSON.parse(process.env.BENCH_FLOOR);
const module = await import(pathToFileURL(file).href);
const handler = scenariosOf(module).find((s) => s.name === scenario)?.floors[floor];
if (!handler) throw new Error(`no floor "${floor}" in scenario ${scenario} of ${file}`);
const pool = createPool({ ...conn, database, connectionLimit: 10, timezone: 'Z', dateStrings: true }).promise();
const context = { ...ctx, pool };

const server = createServer((req, res) => {
  handler(context, req).then(
    (payload) => {
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(text);
    },
    (err) => {
      res.writeHead(500);
      res.end(String(err));
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`floor listening on ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close();
  pool.end().finally(() => process.exit(0));
});
