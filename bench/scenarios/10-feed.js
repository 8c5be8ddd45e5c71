// GET posts.php (following feed, page 1) for several kinds of viewer, at 100,000 and 1,000,000 posts
// (two databases), against two floors:
// - precomputed floor: a bare node:http + mysql2 handler reading the viewer's precomputed timeline
//   (one index range of home_timeline, then posts, authors and the viewer's flags by key) and writing
//   the same JSON as Plaza, byte for byte (checked before the load: the scenario fails otherwise);
// - read-time floor (the 1,000-follows viewer only): the fan-out-on-read query Plaza ran before it
//   had a timeline, for comparison with the figures measured then.
import { feedAnswer, pageOf } from '../post-json.js';
import { bulkInsert, count, ensureUsers, login } from '../lib.js';

const SIZES = [
  { label: '100k', posts: 100_000, databaseSuffix: '_100k' },
  { label: '1m', posts: 1_000_000, databaseSuffix: '' },
];
const USERS = 100_000;
const SHARES = 20;

/** Seeds users, posts and their wall entries up to the size; idempotent. */
async function seedPosts(ctx, size) {
  const users = Math.round(USERS * ctx.scale);
  const posts = Math.round(size.posts * ctx.scale);
  await ensureUsers(ctx.pool, users);
  const existing = await count(ctx.pool, 'posts');
  if (existing >= posts) return users;
  const [[{ maxId }]] = await ctx.pool.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM posts');
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows = [];
  const wall = [];
  for (let i = existing; i < posts; i++) {
    const id = maxId + 1 + (i - existing);
    const at = new Date(start + i * 7_000).toISOString().slice(0, 19).replace('T', ' ');
    const author = 1 + (i % users);
    rows.push([id, author, `bench post ${i} #bench`, '[]', '["bench"]', at]);
    wall.push([author, id, at]);
    if (rows.length === 20_000 || i === posts - 1) {
      await bulkInsert(ctx.pool, 'posts', ['id', 'user_id', 'content', 'media', 'tags', 'created_at'], rows.splice(0));
      await bulkInsert(ctx.pool, 'wall_entries', ['user_id', 'post_id', 'created_at'], wall.splice(0));
    }
  }
  return users;
}

/** Follows `n` accounts spread over the users; `shift` picks another set (the shares viewer's). */
async function follow(ctx, viewer, users, n, shift = 0) {
  if (n === 0) return;
  const rows = [];
  for (let i = 0; i < n; i++) rows.push([viewer.userId, 1 + ((Math.floor((i * users) / n) + shift) % users), '2026-01-01 00:00:00']);
  await ctx.pool.query('INSERT IGNORE INTO follows (follower_id, followee_id, created_at) VALUES ?', [rows]);
}

/**
 * Older posts of the followed accounts, so that the viewer's first page is full at every size: at
 * 100k posts each of 100,000 accounts has one, and ten follows would give a page of ten posts against
 * twenty at 1M, which is not the same work to compare. Dated before every seeded post, so that no
 * other viewer's first page changes.
 */
async function seedOlderPosts(ctx, viewer, perAccount) {
  const [followed] = await ctx.pool.query(
    'SELECT f.followee_id, COUNT(w.id) AS n FROM follows f LEFT JOIN wall_entries w ON w.user_id = f.followee_id WHERE f.follower_id = ? GROUP BY f.followee_id',
    [viewer.userId],
  );
  for (const { followee_id: author, n } of followed) {
    for (let k = Number(n); k < perAccount; k++) {
      const at = `2025-12-${String(1 + k).padStart(2, '0')} 00:00:${String(author % 60).padStart(2, '0')}`;
      const [r] = await ctx.pool.query('INSERT INTO posts (user_id, content, media, tags, created_at) VALUES (?, ?, ?, ?, ?)', [
        author,
        `older bench post ${k} #bench`,
        '[]',
        '["bench"]',
        at,
      ]);
      await ctx.pool.query('INSERT INTO wall_entries (user_id, post_id, created_at) VALUES (?, ?, ?)', [author, r.insertId, at]);
    }
  }
}

/**
 * Recent shares by followed accounts, written as the share operation writes them (share row, wall
 * entry, counter), dated after every seeded post so that they head the feed.
 */
async function seedShares(ctx, viewer) {
  const [[{ n }]] = await ctx.pool.query(
    'SELECT COUNT(*) AS n FROM wall_entries w JOIN follows f ON f.followee_id = w.user_id WHERE f.follower_id = ? AND w.is_share = 1',
    [viewer.userId],
  );
  if (Number(n) >= SHARES) return;
  const [followed] = await ctx.pool.query('SELECT followee_id FROM follows WHERE follower_id = ? ORDER BY followee_id LIMIT ?', [
    viewer.userId,
    SHARES,
  ]);
  // Recent posts of other accounts, one per sharer.
  const [shared] = await ctx.pool.query('SELECT id FROM posts ORDER BY id DESC LIMIT ?', [followed.length * 37]);
  for (let i = 0; i < followed.length; i++) {
    const sharer = followed[i].followee_id;
    const postId = shared[Math.min(shared.length - 1, i * 37)].id;
    const at = `2026-12-01 00:00:${String(10 + i).padStart(2, '0')}`;
    await ctx.pool.query('INSERT IGNORE INTO shares (post_id, user_id, created_at) VALUES (?, ?, ?)', [postId, sharer, at]);
    await ctx.pool.query('INSERT INTO wall_entries (user_id, post_id, is_share, created_at) VALUES (?, ?, 1, ?)', [sharer, postId, at]);
    await ctx.pool.query('UPDATE posts SET shares_count = shares_count + 1 WHERE id = ?', [postId]);
  }
}

/**
 * The seed wrote walls and follows directly, not through the operations that keep timelines: the
 * viewer's timeline is dropped, and the first request (made here, before the load) builds it again.
 */
async function rebuildTimeline(ctx, viewer) {
  await ctx.pool.query('DELETE FROM home_timeline WHERE user_id = ?', [viewer.userId]);
  await ctx.pool.query('DELETE FROM home_timeline_state WHERE user_id = ?', [viewer.userId]);
}

const PATH = '/api/v1/posts.php?page=1&per_page=20';

async function plazaAnswer(ctx) {
  const res = await fetch(`${ctx.plazaUrl}${PATH}`, { headers: { authorization: `Bearer ${ctx.me.token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** Posts, authors and the viewer's flags for a page of timeline entries, as Plaza's JSON (post-json.js). */
async function feedJson(pool, viewer, entries, perPage) {
  const { postIds, accountIds } = pageOf(entries, perPage);
  if (!postIds.length) return feedAnswer({ entries, perPage, posts: [], users: [], reactions: [], bookmarks: [] });
  const [posts] = await pool.query('SELECT * FROM posts WHERE id IN (?)', [postIds]);
  const [[users], [reactions], [bookmarks]] = await Promise.all([
    pool.query('SELECT id, username, avatar, militant_badge, is_technician, is_admin, is_moderator FROM users WHERE id IN (?)', [
      accountIds(posts),
    ]),
    pool.query('SELECT post_id, reaction_type FROM post_reactions WHERE user_id = ? AND post_id IN (?)', [viewer, postIds]),
    pool.query('SELECT post_id FROM bookmarks WHERE user_id = ? AND post_id IN (?)', [viewer, postIds]),
  ]);
  return feedAnswer({ entries, perPage, posts, users, reactions, bookmarks });
}

/** The viewer's page from the precomputed timeline: one index range, then everything by key. */
async function precomputedFloor(ctx) {
  const [entries] = await ctx.pool.query(
    'SELECT post_id, owner_id, is_share, created_at FROM home_timeline WHERE user_id = ? ORDER BY created_at DESC, entry_id DESC LIMIT 21',
    [ctx.me.userId],
  );
  return feedJson(ctx.pool, ctx.me.userId, entries, 20);
}

/** The fan-out-on-read feed of before: newest wall entries of the followed accounts and one's own. */
async function readTimeFloor(ctx) {
  const viewer = ctx.me.userId;
  const [entries] = await ctx.pool.query(
    `SELECT w.post_id, w.user_id AS owner_id, w.is_share, w.created_at FROM wall_entries w
     WHERE w.user_id = ? OR w.user_id IN (SELECT followee_id FROM follows WHERE follower_id = ?)
     ORDER BY w.created_at DESC, w.id DESC LIMIT 21`,
    [viewer, viewer],
  );
  return feedJson(ctx.pool, viewer, entries, 20);
}

const VIEWERS = [
  { kind: 'follows-1000', follows: 1000, readTimeFloor: true },
  { kind: 'new-user', follows: 0 },
  { kind: 'few-follows', follows: 10, olderPostsPerAccount: 3 },
  { kind: 'shares', follows: 1000, shares: true },
];

export const scenarios = SIZES.flatMap((size) =>
  VIEWERS.map((viewer) => ({
    name: `feed-${size.label}-${viewer.kind}`,
    databaseSuffix: size.databaseSuffix,
    async seed(ctx) {
      const users = await seedPosts(ctx, size);
      const me = await login(ctx.plazaUrl, `bench_feed_${viewer.kind.replace(/-/g, '_')}`);
      await follow(ctx, me, users, Math.max(viewer.follows ? 10 : 0, Math.round(viewer.follows * ctx.scale)), viewer.shares ? 1 : 0);
      if (viewer.olderPostsPerAccount) await seedOlderPosts(ctx, me, viewer.olderPostsPerAccount);
      if (viewer.shares) await seedShares(ctx, me);
      await rebuildTimeline(ctx, me);
      const seeded = { me };
      // The first request builds the timeline; the floor's JSON must then be Plaza's, byte for byte.
      const plazaText = await plazaAnswer({ ...ctx, ...seeded });
      const floorText = await precomputedFloor({ ...ctx, ...seeded });
      if (plazaText !== floorText) {
        throw new Error(
          `the precomputed floor does not answer Plaza's JSON:\nplaza ${plazaText.slice(0, 400)}\nfloor ${floorText.slice(0, 400)}`,
        );
      }
      const items = JSON.parse(plazaText).posts.length;
      return { ...seeded, note: `${items} posts per answer, ${plazaText.length} bytes, identical to the precomputed floor's` };
    },
    plaza(ctx) {
      return { path: PATH, headers: { authorization: `Bearer ${ctx.me.token}` } };
    },
    floors: viewer.readTimeFloor
      ? { 'precomputed floor': precomputedFloor, 'read-time floor': readTimeFloor }
      : { 'precomputed floor': precomputedFloor },
  })),
);
