// POST posts.php: create a text post with a hashtag (insert the post and its wall entry, answer the item).
import { login } from '../lib.js';

export const name = 'create-post';

export async function seed(ctx) {
  return { me: await login(ctx.plazaUrl, 'bench_poster') };
}

/** What the loads wrote (Plaza's posts and the floor's), so that later runs read the same database. */
export async function cleanup(ctx) {
  await ctx.pool.query('DELETE FROM posts WHERE user_id = ?', [ctx.me.userId]);
}

export function plaza(ctx) {
  return {
    path: '/api/v1/posts.php',
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.me.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Benchmark post #bench', tags: ['load'] }),
  };
}

export async function floor(ctx) {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const conn = await ctx.pool.getConnection();
  try {
    await conn.beginTransaction();
    const [r] = await conn.query('INSERT INTO posts (user_id, content, media, tags, created_at) VALUES (?, ?, ?, ?, ?)', [
      ctx.me.userId,
      'Benchmark post #bench',
      '[]',
      '["bench","load"]',
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
