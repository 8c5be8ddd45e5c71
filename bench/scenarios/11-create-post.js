// POST posts.php: create a text post with a hashtag, against two floors:
// - floor: the post and its wall entry in a transaction, then the post read back (no token check, no
//   timeline): the floor the create-post target was set against;
// - same-work floor: what Plaza must do for the same request, done bare: the token and ban check, the
//   post, its wall entry, the timelines of the author and of the followers who have one (fan-out on
//   write, which the feed's precomputed floor reads), in one transaction, answering Plaza's JSON
//   (checked before the load, ids and dates aside); the floor issue 15's create-post target is judged
//   against (docs/decisions/0076, fourth addendum). Plaza runs one statement more: federation's
//   remote-follower check.
import { createHash } from 'node:crypto';
import { cachedSession, inTransaction, login } from '../lib.js';
import { postItem } from '../post-json.js';

export const name = 'create-post';

const PATH = '/api/v1/posts.php';
const BODY = { content: 'Benchmark post #bench', tags: ['load'] };
/** The tags Plaza stores for BODY: the content's hashtags, then the given ones. */
const STORED_TAGS = '["bench","load"]';

const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

export async function seed(ctx) {
  const me = await login(ctx.plazaUrl, 'bench_poster');
  const seeded = { me, tokenHash: createHash('sha256').update(me.token).digest('hex') };
  // The same answer, but for the new post's id and dates (the two posts are removed by the cleanup).
  const res = await fetch(`${ctx.plazaUrl}${PATH}`, {
    method: 'POST',
    headers: plaza({ ...ctx, ...seeded }).headers,
    body: JSON.stringify(BODY),
  });
  const plazaText = await res.text();
  if (res.status !== 200) throw new Error(`posts.php answered ${res.status}: ${plazaText.slice(0, 300)}`);
  const floorText = await sameWorkFloor({ ...ctx, ...seeded });
  const normal = (text) => text.replace(/"(id|post_id)":\d+/g, '"$1":0').replace(/"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"/g, '"date"');
  if (normal(plazaText) !== normal(floorText)) {
    throw new Error(
      `the same-work floor does not answer Plaza's JSON:\nplaza ${plazaText.slice(0, 600)}\nfloor ${floorText.slice(0, 600)}`,
    );
  }
  return seeded;
}

/** What the loads wrote (Plaza's posts and the floors'), so that later runs read the same database. */
export async function cleanup(ctx) {
  await ctx.pool.query('DELETE FROM posts WHERE user_id = ?', [ctx.me.userId]);
}

export function plaza(ctx) {
  return {
    path: PATH,
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.me.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(BODY),
  };
}

export async function floor(ctx) {
  const at = now();
  const conn = await ctx.pool.getConnection();
  try {
    await conn.beginTransaction();
    const [r] = await conn.query('INSERT INTO posts (user_id, content, media, tags, created_at) VALUES (?, ?, ?, ?, ?)', [
      ctx.me.userId,
      BODY.content,
      '[]',
      STORED_TAGS,
      at,
    ]);
    await conn.query('INSERT INTO wall_entries (user_id, post_id, created_at) VALUES (?, ?, ?)', [ctx.me.userId, r.insertId, at]);
    await conn.commit();
    const [[post]] = await conn.query('SELECT * FROM posts WHERE id = ?', [r.insertId]);
    return { success: true, post_id: post.id, data: post };
  } finally {
    conn.release();
  }
}

async function sameWorkFloor(ctx) {
  // The token check and author card, kept in the process as Plaza keeps them (bench/lib.js cachedSession).
  const author = await cachedSession(ctx.pool, ctx.tokenHash, async () => {
    const [[row]] = await ctx.pool.query(
      `SELECT u.id, u.username, u.avatar, u.militant_badge, u.is_admin, u.is_technician, u.is_moderator,
              EXISTS (SELECT 1 FROM user_bans b WHERE b.user_id = u.id AND (b.is_permanent = 1 OR b.expires_at > UTC_TIMESTAMP())) AS banned
       FROM access_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > UTC_TIMESTAMP()`,
      [ctx.tokenHash],
    );
    return row;
  });
  if (!author || author.banned) throw new Error('not authenticated');
  const post = {
    user_id: author.id,
    content: BODY.content,
    media: '[]',
    media_type: null,
    tags: STORED_TAGS,
    likes_count: 0,
    comments_count: 0,
    shares_count: 0,
    created_at: now(),
    updated_at: null,
  };
  await inTransaction(ctx.pool, async (conn) => {
    const [p] = await conn.query('INSERT INTO posts (user_id, content, media, media_type, tags, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      post.user_id,
      post.content,
      post.media,
      post.media_type,
      post.tags,
      post.created_at,
    ]);
    post.id = p.insertId;
    const [w] = await conn.query('INSERT INTO wall_entries (user_id, post_id, created_at) VALUES (?, ?, ?)', [
      author.id,
      post.id,
      post.created_at,
    ]);
    const entry = [w.insertId, post.id, author.id, post.created_at];
    await conn.query(
      `INSERT IGNORE INTO home_timeline (user_id, entry_id, post_id, owner_id, is_share, created_at)
       SELECT s.user_id, ?, ?, ?, 0, ? FROM home_timeline_state s WHERE s.user_id = ?
       UNION ALL
       SELECT f.follower_id, ?, ?, ?, 0, ? FROM follows f JOIN home_timeline_state s ON s.user_id = f.follower_id WHERE f.followee_id = ?`,
      [...entry, author.id, ...entry, author.id],
    );
  });
  return JSON.stringify({ success: true, message: 'Post created', post_id: post.id, id: post.id, data: postItem(post, author) });
}

export const floors = { floor, 'same-work floor': sameWorkFloor };
