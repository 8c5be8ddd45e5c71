// GET users.php: token check plus the own profile with its counters.
import { createHash } from 'node:crypto';
import { ensureUsers, login } from '../lib.js';

export const name = 'profile';

export async function seed(ctx) {
  await ensureUsers(ctx.pool, Math.round(10_000 * ctx.scale));
  const me = await login(ctx.plazaUrl, 'bench_profile_user');
  return { me, tokenHash: createHash('sha256').update(me.token).digest('hex') };
}

export function plaza(ctx) {
  return { path: '/api/v1/users.php', headers: { authorization: `Bearer ${ctx.me.token}` } };
}

export async function floor(ctx) {
  const [[token]] = await ctx.pool.query(
    'SELECT id, user_id FROM access_tokens WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > UTC_TIMESTAMP()',
    [ctx.tokenHash],
  );
  const [[user]] = await ctx.pool.query('SELECT * FROM users WHERE id = ?', [token.user_id]);
  const [[stats]] = await ctx.pool.query(
    'SELECT (SELECT COUNT(*) FROM follows WHERE followee_id = ?) AS followers_count, (SELECT COUNT(*) FROM follows WHERE follower_id = ?) AS following_count',
    [user.id, user.id],
  );
  return { success: true, id: user.id, username: user.username, ...stats };
}
