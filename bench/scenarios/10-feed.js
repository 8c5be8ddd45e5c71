// GET posts.php (following feed, page 1): a user following 1,000 accounts over 1,000,000 posts.
import { bulkInsert, count, ensureUsers, login } from '../lib.js';

export const name = 'feed';

export async function seed(ctx) {
  const users = Math.round(100_000 * ctx.scale);
  const posts = Math.round(1_000_000 * ctx.scale);
  const following = Math.max(10, Math.round(1_000 * ctx.scale));
  await ensureUsers(ctx.pool, users);
  const me = await login(ctx.plazaUrl, 'bench_feed_user');
  const existing = await count(ctx.pool, 'posts');
  if (existing < posts) {
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
  }
  const follows = [];
  for (let i = 0; i < following; i++) follows.push([me.userId, 1 + Math.floor((i * users) / following), '2026-01-01 00:00:00']);
  await ctx.pool.query('INSERT IGNORE INTO follows (follower_id, followee_id, created_at) VALUES ?', [follows]);
  return { me };
}

export function plaza(ctx) {
  return { path: '/api/v1/posts.php?page=1&per_page=20', headers: { authorization: `Bearer ${ctx.me.token}` } };
}

/** The same work on the bare driver: page of ids from the walls, then posts, authors and the viewer's flags. */
export async function floor(ctx) {
  const viewer = ctx.me.userId;
  const [entries] = await ctx.pool.query(
    `SELECT w.post_id, w.is_share, w.user_id, w.created_at FROM wall_entries w
     WHERE w.user_id = ? OR w.user_id IN (SELECT followee_id FROM follows WHERE follower_id = ?)
     ORDER BY w.created_at DESC, w.id DESC LIMIT 21`,
    [viewer, viewer],
  );
  const ids = entries.map((e) => e.post_id);
  if (!ids.length) return { success: true, data: { posts: [] } };
  const [posts] = await ctx.pool.query('SELECT * FROM posts WHERE id IN (?)', [ids]);
  const [users] = await ctx.pool.query('SELECT id, username, avatar FROM users WHERE id IN (?)', [[...new Set(posts.map((p) => p.user_id))]]);
  const [reactions] = await ctx.pool.query('SELECT post_id, reaction_type FROM post_reactions WHERE user_id = ? AND post_id IN (?)', [viewer, ids]);
  await ctx.pool.query('SELECT post_id FROM bookmarks WHERE user_id = ? AND post_id IN (?)', [viewer, ids]);
  const byId = new Map(users.map((u) => [u.id, u]));
  const liked = new Set(reactions.map((r) => r.post_id));
  return { success: true, data: { posts: posts.map((p) => ({ ...p, username: byId.get(p.user_id)?.username, is_liked: liked.has(p.id) })) } };
}
