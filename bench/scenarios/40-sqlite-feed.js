// GET posts.php (following feed, page 1) on SQLite, the embedded default, at 500,000 posts: issue 15's
// target is a p99 under 100 ms at 32 connections. Two viewers, a 1,000-follows one and a new user
// following nobody, each against a floor: a bare node:http handler reading the viewer's precomputed
// timeline from the same file with better-sqlite3 and writing Plaza's JSON (compared byte for byte
// before the load; a difference is reported in the line, not failed: the figure is still a floor).
// The floor runs in a process of its own, as Plaza and every other floor do (floor-process.js).
//
// Plaza runs on a file of the bench's own (os.tmpdir()/plaza-bench-sqlite/plaza.sqlite), so this
// scenario measures its own way (`run`), and no MariaDB-backed Plaza runs beside it (`embedded`).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { feedAnswer, pageOf } from '../post-json.js';
import { login } from '../lib.js';

// better-sqlite3 is a dependency of the adapters package, not of the bench: load it from there.
const adapters = join(dirname(fileURLToPath(import.meta.url)), '../../packages/adapters-mysql/package.json');
const Sqlite = createRequire(adapters)('better-sqlite3');

const DIR = join(tmpdir(), 'plaza-bench-sqlite');
const FILE = join(DIR, 'plaza.sqlite');
// Written once the seed is complete: an interrupted or differently sized seed is rebuilt from scratch.
const MARKER = join(DIR, 'seed.json');
const POSTS = 500_000;
const USERS = 100_000;
const FOLLOWS = 1000;
const PATH = '/api/v1/posts.php?page=1&per_page=20';
const TARGET_P99 = 100;

// Selects SQLite at our file: empty values unset what would select MySQL (a host, a socket), and
// startServer's other MariaDB settings are then ignored.
const SQLITE_ENV = { DB_HOST: '', API_DB_HOST: '', DB_SOCKET: '', API_DATA_DIR: DIR };

function open() {
  const db = new Sqlite(FILE);
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Users bench_<i>, their posts and wall entries, written in transactions with prepared statements. */
function writeRows(users, posts) {
  const db = open();
  db.pragma('synchronous = OFF');
  // One cost-4 hash shared by every seeded user, as lib.js ensureUsers writes it.
  const hash = bcrypt.hashSync('bench password', 4).replace(/^\$2b\$/, '$2y$');
  const user = db.prepare('INSERT INTO users (id, username, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)');
  const post = db.prepare('INSERT INTO posts (id, user_id, content, media, tags, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const wall = db.prepare('INSERT INTO wall_entries (id, user_id, post_id, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= users; i++) user.run(i, `bench_${i}`, `bench_${i}@bench.test`, hash, '2026-01-01 00:00:00');
  })();
  const start = Date.parse('2026-01-01T00:00:00Z');
  const chunk = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const at = new Date(start + i * 7_000).toISOString().slice(0, 19).replace('T', ' ');
      const author = 1 + (i % users);
      post.run(i + 1, author, `bench post ${i} #bench`, '[]', '["bench"]', at);
      wall.run(i + 1, author, i + 1, at);
    }
  });
  for (let i = 0; i < posts; i += 50_000) chunk(i, Math.min(posts, i + 50_000));
  db.close();
}

/** The seeded file, reused while its size matches; otherwise Plaza creates the schema and we fill it. */
async function ensureSeed(ctx) {
  const size = { users: Math.round(USERS * ctx.scale), posts: Math.round(POSTS * ctx.scale) };
  const seeded = existsSync(MARKER) && existsSync(FILE) ? JSON.parse(readFileSync(MARKER, 'utf8')) : null;
  if (seeded?.users === size.users && seeded?.posts === size.posts) return { ...size, reused: true };
  rmSync(DIR, { recursive: true, force: true });
  const server = await ctx.startServer(ctx.database, SQLITE_ENV);
  await server.stop();
  writeRows(size.users, size.posts);
  writeFileSync(MARKER, JSON.stringify(size));
  return { ...size, reused: false };
}

/**
 * Logs the viewer in (registering it), gives it its follows, and drops its timeline: the seed wrote
 * walls and follows directly, so the first request (made by the caller, before the load) builds it.
 */
async function prepareViewer(db, plazaUrl, viewer, users) {
  const me = await login(plazaUrl, viewer.username);
  const follow = db.prepare("INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, '2026-01-01 00:00:00')");
  db.transaction(() => {
    for (let i = 0; i < viewer.follows; i++) follow.run(me.userId, 1 + (Math.floor((i * users) / viewer.follows) % users));
  })();
  db.prepare('DELETE FROM home_timeline WHERE user_id = ?').run(me.userId);
  db.prepare('DELETE FROM home_timeline_state WHERE user_id = ?').run(me.userId);
  return me;
}

/**
 * The precomputed floor: one index range of home_timeline, then posts, authors and the viewer's flags
 * by key, written as Plaza's JSON (post-json.js, as 10-feed.js's floor; synchronous here).
 */
function floorHandler(db) {
  const byIds = (sql) => db.prepare(sql.replace('(?)', '(SELECT value FROM json_each(?))'));
  const q = {
    entries: db.prepare(
      'SELECT post_id, owner_id, is_share, created_at FROM home_timeline WHERE user_id = ? ORDER BY created_at DESC, entry_id DESC LIMIT 21',
    ),
    posts: byIds('SELECT * FROM posts WHERE id IN (?)'),
    users: byIds('SELECT id, username, avatar, militant_badge, is_technician, is_admin, is_moderator FROM users WHERE id IN (?)'),
    reactions: db.prepare(
      'SELECT post_id, reaction_type FROM post_reactions WHERE user_id = ? AND post_id IN (SELECT value FROM json_each(?))',
    ),
    bookmarks: db.prepare('SELECT post_id FROM bookmarks WHERE user_id = ? AND post_id IN (SELECT value FROM json_each(?))'),
  };
  return (viewer, perPage = 20) => {
    const entries = q.entries.all(viewer);
    const { postIds, accountIds } = pageOf(entries, perPage);
    const ids = JSON.stringify(postIds);
    const posts = q.posts.all(ids);
    return feedAnswer({
      entries,
      perPage,
      posts,
      users: q.users.all(JSON.stringify(accountIds(posts))),
      reactions: q.reactions.all(viewer, ids),
      bookmarks: q.bookmarks.all(viewer, ids),
    });
  };
}

/** The precomputed floor as the floor process serves it (run.js's withFloor): the file is opened at its first request. */
let floorAnswer;
async function precomputedFloor(ctx) {
  floorAnswer ??= floorHandler(open());
  return floorAnswer(ctx.viewer);
}

const VIEWERS = [
  { kind: 'follows-1000', username: 'bench_feed_follows_1000', follows: FOLLOWS },
  { kind: 'new-user', username: 'bench_feed_new_user', follows: 0 },
];

const failuresOf = (label, r) =>
  r.non2xx || r.errors || !r.total ? [`${label}: ${r.total} answers, ${r.non2xx} non-2xx, ${r.errors} errors or timeouts`] : [];

export const scenarios = [
  {
    name: 'sqlite-feed-500k',
    embedded: true,
    floors: { 'precomputed floor': precomputedFloor },
    async seed(ctx) {
      return { sqlite: await ensureSeed(ctx) };
    },
    async run(ctx) {
      const { users, posts, reused } = ctx.sqlite;
      const server = await ctx.startServer(ctx.database, SQLITE_ENV);
      const db = open();
      const answer = floorHandler(db);
      const lines = [`${posts} posts by ${users} users in ${FILE} (${reused ? 'reused' : 'seeded now'})`];
      const failures = [];
      const table = [];
      try {
        for (const viewer of VIEWERS) {
          const follows = viewer.follows ? Math.max(10, Math.round(viewer.follows * ctx.scale)) : 0;
          const me = await prepareViewer(db, server.url, { ...viewer, follows }, users);
          const headers = { authorization: `Bearer ${me.token}` };
          // The first request builds the timeline; it is timed, then the floor's JSON is compared with it.
          const t0 = performance.now();
          const res = await fetch(`${server.url}${PATH}`, { headers });
          const plazaText = await res.text();
          const buildMs = Math.round(performance.now() - t0);
          if (res.status !== 200) throw new Error(`${viewer.kind}: feed answered ${res.status}: ${plazaText.slice(0, 300)}`);
          const identical = plazaText === answer(me.userId);
          const errorsBefore = server.errorLines.length;
          const plaza = await ctx.load(`${server.url}${PATH}`, { headers });
          const floor = await ctx.withFloor('precomputed floor', { ...ctx, viewer: me.userId }, (url) => ctx.load(url));
          failures.push(...failuresOf(`${viewer.kind} plaza`, plaza), ...failuresOf(`${viewer.kind} floor`, floor));
          const logged = server.errorLines.length - errorsBefore;
          if (logged) failures.push(`${viewer.kind}: plaza logged ${logged} errors, e.g. ${server.errorLines.at(-1)}`);
          const met = plaza.p99 < TARGET_P99 ? 'met' : 'NOT met';
          const ratio = { rps: +(plaza.rps / floor.rps).toFixed(2), p99: +(plaza.p99 / Math.max(floor.p99, 1)).toFixed(2) };
          const floorName = identical
            ? 'precomputed floor (better-sqlite3)'
            : 'precomputed floor (better-sqlite3; JSON differs from Plaza’s)';
          const items = JSON.parse(plazaText).posts.length;
          lines.push(
            `${viewer.kind} (${follows} follows): plaza ${plaza.rps} req/s p50 ${plaza.p50} ms p99 ${plaza.p99} ms (non-2xx ${plaza.non2xx}, errors ${plaza.errors}): p99 target < ${TARGET_P99} ms ${met}`,
            `  ${floorName} ${floor.rps} req/s p50 ${floor.p50} ms p99 ${floor.p99} ms — plaza ${ratio.rps}× its throughput, ${ratio.p99}× its p99`,
            `  first request (builds the timeline) ${buildMs} ms; ${items} posts per answer, ${plazaText.length} bytes, ${identical ? 'identical to the floor’s' : 'NOT identical to the floor’s'}`,
          );
          table.push([
            `sqlite-feed-500k-${viewer.kind} (p99 < ${TARGET_P99} ms: ${met})`,
            plaza.rps,
            `${plaza.p50} / ${plaza.p99}`,
            floorName,
            floor.rps,
            floor.p99,
            ratio.rps,
            ratio.p99,
          ]);
        }
      } finally {
        await server.stop();
        // The logins' tokens are what the scenario adds besides the timelines (kept: they are its seed).
        db.prepare(
          "DELETE FROM access_tokens WHERE user_id IN (SELECT id FROM users WHERE username LIKE 'bench\\_feed\\_%' ESCAPE '\\')",
        ).run();
        db.close();
      }
      return { lines, failures, table, floors: {}, ratios: {} };
    },
  },
];
