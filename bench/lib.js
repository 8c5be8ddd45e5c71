import bcrypt from 'bcryptjs';

// Seeding helpers shared by scenarios: bulk inserts in chunks, and a logged-in bench user.
export async function bulkInsert(pool, table, columns, rows, chunk = 2000) {
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await pool.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(',')}) VALUES ?`, [part]);
  }
}

export async function count(pool, table) {
  const [rows] = await pool.query(`SELECT COUNT(*) AS n FROM \`${table}\``);
  return Number(rows[0].n);
}

/** Seeds `n` users named bench_<i> (password "bench password") unless they are already there. */
export async function ensureUsers(pool, n) {
  if ((await count(pool, 'users')) >= n) return;
  // One cost-4 hash shared by every seeded user: seeding must not spend minutes hashing.
  const hash = bcrypt.hashSync('bench password', 4).replace(/^\$2b\$/, '$2y$');
  const existing = await count(pool, 'users');
  const rows = [];
  for (let i = existing + 1; i <= n; i++) rows.push([`bench_${i}`, `bench_${i}@bench.test`, hash, '2026-01-01 00:00:00']);
  await bulkInsert(pool, 'users', ['username', 'email', 'password_hash', 'created_at'], rows);
}

/** `work` on one connection of `pool` inside a transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction(pool, work) {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const result = await work(conn);
    await conn.commit();
    return result;
  } catch (error) {
    await conn.rollback();
    throw error;
  } finally {
    conn.release();
  }
}

export async function login(plazaUrl, username) {
  const reg = await fetch(`${plazaUrl}/api/v1/auth.php?action=register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@bench.test`, password: 'bench password!' }),
  });
  await reg.text();
  const res = await fetch(`${plazaUrl}/api/v1/auth.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench password!' }),
  });
  const body = await res.json();
  if (!body.token) throw new Error(`bench login failed: ${JSON.stringify(body)}`);
  return { token: body.token, userId: body.user_id };
}

/**
 * A scenario file's scenarios: its `scenarios` list, or the single one its `name`, `seed`, `plaza`,
 * `floors` (or one `floor`) and `cleanup` make.
 */
export function scenariosOf(module) {
  if (Array.isArray(module.scenarios)) return module.scenarios;
  return [
    {
      name: module.name,
      seed: module.seed,
      plaza: module.plaza,
      floors: module.floors ?? { floor: module.floor },
      cleanup: module.cleanup,
    },
  ];
}

/**
 * The floors' token check as Plaza's is since issue 30 (docs/decisions/0150): a session read once, then
 * kept in the floor's process by its token's hash, and dropped when the version row Plaza's signal
 * writes (auth_versions, row 0) moved; that row is read at most once a second. The same work, bare.
 */
const floorSessions = new Map();
let floorVersion = null;
let floorCheckedAt = 0;
export async function cachedSession(pool, tokenHash, load) {
  const now = Date.now();
  if (now - floorCheckedAt >= 1000) {
    floorCheckedAt = now;
    const [rows] = await pool.query('SELECT version FROM auth_versions WHERE user_id = 0');
    const version = rows.length ? String(rows[0].version) : '0';
    if (version !== floorVersion) floorSessions.clear();
    floorVersion = version;
  }
  let session = floorSessions.get(tokenHash);
  if (!session) {
    session = await load();
    if (session && !session.banned) floorSessions.set(tokenHash, session);
  }
  return session;
}
