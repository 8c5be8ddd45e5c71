// GET users.php: token check plus the own profile with its counters, against two floors:
// - floor: the token, the account and two follow counters, answering part of the profile (the floor
//   every run before 2026-11-23 measured, kept so that the figures stay comparable);
// - same-answer floor: the same three statements, completed to everything users.php answers (the ban
//   check, the post and fediverse counters) and writing Plaza's JSON byte for byte, checked before
//   the load as the feed's floor is (docs/decisions/0076, second addendum).
import { createHash } from 'node:crypto';
import { cachedSession, ensureUsers, login } from '../lib.js';

export const name = 'profile';

const PATH = '/api/v1/users.php';

async function plazaAnswer(ctx) {
  const res = await fetch(`${ctx.plazaUrl}${PATH}`, { headers: { authorization: `Bearer ${ctx.me.token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`users.php answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

export async function seed(ctx) {
  await ensureUsers(ctx.pool, Math.round(10_000 * ctx.scale));
  const me = await login(ctx.plazaUrl, 'bench_profile_user');
  const seeded = { me, tokenHash: createHash('sha256').update(me.token).digest('hex') };
  const plazaText = await plazaAnswer({ ...ctx, ...seeded });
  const floorText = await sameAnswerFloor({ ...ctx, ...seeded });
  if (plazaText !== floorText) {
    throw new Error(
      `the same-answer floor does not answer Plaza's JSON:\nplaza ${plazaText.slice(0, 600)}\nfloor ${floorText.slice(0, 600)}`,
    );
  }
  return seeded;
}

export function plaza(ctx) {
  return { path: PATH, headers: { authorization: `Bearer ${ctx.me.token}` } };
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

const ONLINE_WINDOW_MS = 5 * 60_000;

async function sameAnswerFloor(ctx) {
  // The token check, kept in the process as Plaza keeps it (bench/lib.js cachedSession).
  const token = await cachedSession(ctx.pool, ctx.tokenHash, async () => {
    const [[row]] = await ctx.pool.query(
      `SELECT t.user_id, EXISTS (SELECT 1 FROM user_bans b WHERE b.user_id = t.user_id AND (b.is_permanent = 1 OR b.expires_at > UTC_TIMESTAMP())) AS banned
       FROM access_tokens t WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > UTC_TIMESTAMP()`,
      [ctx.tokenHash],
    );
    return row;
  });
  if (!token || token.banned) throw new Error('not authenticated');
  const [[u]] = await ctx.pool.query('SELECT * FROM users WHERE id = ?', [token.user_id]);
  const [[stats]] = await ctx.pool.query(
    `SELECT (SELECT COUNT(*) FROM posts WHERE user_id = ?) AS posts_count,
            (SELECT COUNT(*) FROM follows WHERE followee_id = ?) AS followers_count,
            (SELECT COUNT(*) FROM follows WHERE follower_id = ?) AS following_count,
            (SELECT COUNT(*) FROM remote_followers WHERE user_id = ?) AS remote_followers_count,
            (SELECT COUNT(*) FROM remote_following WHERE user_id = ?) AS remote_following_count`,
    [u.id, u.id, u.id, u.id, u.id],
  );
  // Plaza's public URL is its own address in the bench (run.js's startServer sets API_PUBLIC_URL).
  const origin = new URL(ctx.plazaUrl);
  const technician = Boolean(u.is_admin || u.is_technician);
  return JSON.stringify({
    success: true,
    id: u.id,
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    email: u.email,
    avatar: u.avatar ?? 'default.svg',
    banner: u.banner,
    bio: u.bio ?? '',
    cause: u.cause,
    website: u.website,
    twitter: u.twitter,
    instagram: u.instagram,
    facebook: u.facebook,
    tiktok: u.tiktok,
    mastodon: u.mastodon,
    bluesky: u.bluesky,
    location: u.location,
    github: u.github,
    militant_badge: u.militant_badge,
    is_militant_technician: technician,
    is_admin: Boolean(u.is_admin),
    is_moderator: Boolean(u.is_admin || u.is_moderator),
    is_technician: technician,
    is_private: Boolean(u.is_private),
    is_online: u.last_active_at !== null && Date.now() - Date.parse(`${u.last_active_at.replace(' ', 'T')}Z`) < ONLINE_WINDOW_MS,
    last_active: u.last_active_at,
    status_emoji: u.status_emoji,
    status_text: u.status_text,
    two_factor_enabled: Boolean(u.totp_enabled),
    posts_count: Number(stats.posts_count),
    followers_count: Number(stats.followers_count),
    following_count: Number(stats.following_count),
    // One's own profile: no relation to oneself.
    is_following: false,
    is_followed_by: false,
    is_friend: false,
    sent_request_id: null,
    received_request_id: null,
    created_at: u.created_at,
    fediverse_actor_id: `${origin.origin}/fediverse/actor.php?username=${encodeURIComponent(u.username)}`,
    fediverse_handle: `@${u.username}@${origin.host}`,
    fediverse_followers_count: Number(stats.remote_followers_count),
    fediverse_following_count: Number(stats.remote_following_count),
    is_remote: false,
    account_type: 'local',
  });
}

export const floors = { floor, 'same-answer floor': sameAnswerFloor };
