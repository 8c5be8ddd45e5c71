// POST auth.php (login, bcrypt cost 10) at full speed, with /health-public.php probed meanwhile: the
// login throughput of one process and of API_WORKERS=2 (node:cluster), and what logins cost a cheap
// request's latency (bcrypt runs on threads of its own at the lowest priority, not on the event loop).
// The probe sends one request every 10 ms, as occasional clients would: loaded at full speed it would
// take a core from the hashing, and the throughput compared would be the probe's as much as the logins'.
const PROBE_RATE = 100;
export const scenarios = [
  {
    name: 'login',
    async seed() {
      return {};
    },
    async run(ctx) {
      const username = 'bench_login_user';
      const password = 'bench password!';
      const results = {};
      const failures = [];
      for (const workers of [1, 2]) {
        const server = await ctx.startServer(ctx.database, { BCRYPT_COST: '10' }, workers);
        try {
          await fetch(`${server.url}/api/v1/auth.php?action=register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, email: `${username}@bench.test`, password }),
          }).then((r) => r.text());
          const login = {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password }),
          };
          const check = await fetch(`${server.url}/api/v1/auth.php`, login).then((r) => r.json());
          if (!check.token) throw new Error(`bench login failed: ${JSON.stringify(check)}`);
          const idle = await ctx.probe(`${server.url}/health-public.php`, { everyMs: 1000 / PROBE_RATE });
          const [logins, health] = await Promise.all([
            ctx.load(`${server.url}/api/v1/auth.php`, { ...login, connections: 16 }),
            ctx.probe(`${server.url}/health-public.php`, { everyMs: 1000 / PROBE_RATE }),
          ]);
          results[workers] = { logins, health, idle };
          for (const [label, r] of Object.entries({ logins, health, idle })) {
            if (r.non2xx || r.errors || !r.total)
              failures.push(`API_WORKERS=${workers} ${label}: ${r.total} answers, ${r.non2xx} non-2xx, ${r.errors} errors`);
          }
          if (server.errorLines.length) failures.push(`API_WORKERS=${workers}: plaza logged ${server.errorLines.length} errors`);
        } finally {
          await server.stop();
        }
      }
      await ctx.pool.query('DELETE t FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE u.username = ?', [username]);
      const [one, two] = [results[1], results[2]];
      const ratio = +(two.logins.rps / one.logins.rps).toFixed(2);
      const lines = [1, 2].map(
        (w) =>
          `API_WORKERS=${w}: ${results[w].logins.rps} logins/s (p99 ${results[w].logins.p99} ms); /health-public.php (${PROBE_RATE} req/s) p99 ${results[w].health.p99} ms meanwhile (idle ${results[w].idle.p99} ms)`,
      );
      lines.push(`two workers ${ratio}× one process's logins`);
      const table = [1, 2].map((w) => [
        `login (bcrypt cost 10), API_WORKERS=${w}`,
        results[w].logins.rps,
        `${results[w].logins.p50} / ${results[w].logins.p99}`,
        w === 1 ? `/health-public.php at ${PROBE_RATE} req/s during the logins (idle)` : 'login, API_WORKERS=1',
        w === 1 ? `${results[w].health.rps}` : one.logins.rps,
        w === 1 ? `${results[w].health.p99} (${results[w].idle.p99})` : one.logins.p99,
        w === 1 ? '—' : ratio,
        w === 1 ? '—' : +(two.logins.p99 / Math.max(one.logins.p99, 1)).toFixed(2),
      ]);
      table.push([
        `health at ${PROBE_RATE} req/s during logins, API_WORKERS=2`,
        results[2].health.rps,
        `${results[2].health.p50} / ${results[2].health.p99}`,
        'the same, idle',
        results[2].idle.rps,
        results[2].idle.p99,
        '—',
        +(results[2].health.p99 / Math.max(results[2].idle.p99, 1)).toFixed(2),
      ]);
      return { results, failures, lines, table, floors: {}, ratios: {} };
    },
  },
];
