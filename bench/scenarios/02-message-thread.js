// GET messages.php?user_id=…&page=1: the newest page of a 2,000-message conversation, among noise conversations.
import { createHash } from 'node:crypto';
import { bulkInsert, ensureUsers, login } from '../lib.js';

export const name = 'message-thread';

const PER_PAGE = 20;
const NOISE_USERS = 50;
const REACTIONS = ['like', 'love', 'haha', 'wow', 'sad', 'angry'];
const MESSAGE_COLUMNS = ['id', 'sender_id', 'receiver_id', 'user_low', 'user_high', 'content', 'parent_id', 'is_read', 'created_at'];

const pairOf = (a, b) => [Math.min(a, b), Math.max(a, b)];
const sqlTime = (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const pairsWhere = (pairs) => ({
  sql: pairs.map(() => '(user_low = ? AND user_high = ?)').join(' OR '),
  params: pairs.flatMap(([a, b]) => pairOf(a, b)),
});

/**
 * The seed: `me` and `peer` share round(2,000 × scale) messages (every 10th a reply, every 5th with reactions);
 * noise: each of them also talks with 50 other users, and those users with each other.
 * Reused as long as every pair holds the expected count; otherwise those pairs are wiped and rewritten.
 */
export async function seed(ctx) {
  const { pool } = ctx;
  const threadSize = Math.max(PER_PAGE * 3, Math.round(2_000 * ctx.scale));
  const noisePerPair = Math.max(5, Math.round(100 * ctx.scale));
  await ensureUsers(pool, NOISE_USERS + 10);
  const me = await login(ctx.plazaUrl, 'bench_msgthread_me');
  const peer = await login(ctx.plazaUrl, 'bench_msgthread_peer');
  const [others] = await pool.query('SELECT id FROM users WHERE id NOT IN (?, ?) ORDER BY id LIMIT ?', [
    me.userId,
    peer.userId,
    NOISE_USERS,
  ]);
  const noise = others.map((u) => Number(u.id));

  // Every conversation the seed owns, with its size; the first one is the thread under test.
  const plan = [[me.userId, peer.userId, threadSize]];
  for (let i = 0; i < noise.length; i++) {
    plan.push([me.userId, noise[i], noisePerPair]);
    plan.push([peer.userId, noise[i], noisePerPair]);
    if (i + 1 < noise.length) plan.push([noise[i], noise[i + 1], noisePerPair]);
  }
  const where = pairsWhere(plan);
  const [counts] = await pool.query(
    `SELECT user_low, user_high, COUNT(*) AS n FROM private_messages WHERE ${where.sql} GROUP BY user_low, user_high`,
    where.params,
  );
  const have = new Map(counts.map((r) => [`${r.user_low}:${r.user_high}`, Number(r.n)]));
  const upToDate = plan.every(([a, b, n]) => have.get(pairOf(a, b).join(':')) === n);

  if (!upToDate) {
    await pool.query(`DELETE FROM private_messages WHERE ${where.sql}`, where.params); // reactions cascade
    await pool.query(
      `DELETE FROM conversations WHERE ${plan.map(() => '(user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)').join(' OR ')}`,
      plan.flatMap(([a, b]) => [a, b, b, a]),
    );
    const [[{ maxId }]] = await pool.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM private_messages');
    let id = Number(maxId);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const messages = [];
    const reactions = [];
    const conversations = [];
    for (const [a, b, n] of plan) {
      const [low, high] = pairOf(a, b);
      const first = id + 1;
      let at = start;
      for (let i = 0; i < n; i++) {
        id += 1;
        at = start + i * 37_000;
        // Runs of two or three messages from the same side, as in a real chat.
        const fromA = Math.floor(i / 3) % 2 === 0 || i % 7 === 0;
        const [sender, receiver] = fromA ? [a, b] : [b, a];
        const parent = i % 10 === 9 ? id - 4 : null;
        messages.push([
          id,
          sender,
          receiver,
          low,
          high,
          `bench message ${i} between ${a} and ${b}: see you at the plaza later`,
          parent,
          1,
          sqlTime(at),
        ]);
        if (i % 5 === 0) reactions.push([id, receiver, REACTIONS[i % REACTIONS.length], sqlTime(at + 1_000)]);
        if (i % 15 === 0) reactions.push([id, sender, REACTIONS[(i + 1) % REACTIONS.length], sqlTime(at + 2_000)]);
      }
      if (n > 0 && first <= id) {
        conversations.push([a, b, id, sqlTime(at)], [b, a, id, sqlTime(at)]);
      }
    }
    await bulkInsert(pool, 'private_messages', MESSAGE_COLUMNS, messages);
    await bulkInsert(pool, 'private_message_reactions', ['message_id', 'user_id', 'reaction_type', 'created_at'], reactions);
    await bulkInsert(pool, 'conversations', ['user_id', 'peer_id', 'last_message_id', 'last_message_at'], conversations);
  }
  // Whatever a previous run left: nothing cleared, no auto-delete, so the thread shows its whole length.
  await pool.query(
    'UPDATE conversations SET cleared_before_id = 0, auto_delete_time = 0 WHERE (user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)',
    [me.userId, peer.userId, peer.userId, me.userId],
  );
  return { me, peer, tokenHash: createHash('sha256').update(me.token).digest('hex') };
}

export function plaza(ctx) {
  return { path: `/api/v1/messages.php?user_id=${ctx.peer.userId}&page=1`, headers: { authorization: `Bearer ${ctx.me.token}` } };
}

const avatarOf = (u) => u?.avatar ?? 'default.svg';

/**
 * The same statements Plaza's PrivateMessageService.thread sends, in the same order (both accounts with the
 * viewer's conversation row, the page carrying its total, mark read, parents, reaction counts, own reactions),
 * on the bare driver. The senders are the two accounts read first (docs/decisions/0255).
 */
export async function floor(ctx) {
  const { pool } = ctx;
  const viewer = ctx.me.userId;
  const peerId = ctx.peer.userId;
  const now = sqlTime(Date.now());
  const [accounts] = await pool.query(
    `SELECT u.*, c.cleared_before_id AS conversation_cleared_before_id, c.auto_delete_time AS conversation_auto_delete_time
     FROM users u LEFT JOIN conversations c ON c.user_id = ? AND c.peer_id = ? WHERE u.id IN (?, ?)`,
    [viewer, peerId, peerId, viewer],
  );
  const users = new Map(accounts.map((u) => [u.id, u]));
  const peer = accounts.find((u) => Number(u.id) === peerId);
  const cleared = Number(peer.conversation_cleared_before_id ?? 0);
  const settings = { auto_delete_time: Number(peer.conversation_auto_delete_time ?? 0) };
  const [low, high] = pairOf(viewer, peerId);
  const where = 'WHERE user_low = ? AND user_high = ? AND id > ? AND (expires_at IS NULL OR expires_at > ?)';
  const params = [low, high, cleared, now];
  const [messages] = await pool.query(
    `SELECT *, (SELECT COUNT(*) FROM private_messages ${where}) AS paged_list_total FROM private_messages ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
    [...params, ...params, PER_PAGE, 0],
  );
  const total = messages.length ? Number(messages[0].paged_list_total) : 0;
  await pool.query('UPDATE private_messages SET is_read = 1 WHERE receiver_id = ? AND is_read = 0 AND sender_id = ?', [viewer, peerId]);

  const ids = messages.map((m) => m.id);
  const parentIds = [...new Set(messages.filter((m) => m.parent_id).map((m) => m.parent_id))];
  const [parentRows] = parentIds.length ? await pool.query('SELECT * FROM private_messages WHERE id IN (?)', [parentIds]) : [[]];
  const parents = new Map(parentRows.map((p) => [p.id, p]));
  const counts = new Map();
  const mine = new Map();
  if (ids.length) {
    const [rows] = await pool.query(
      'SELECT message_id, reaction_type, COUNT(*) AS n FROM private_message_reactions WHERE message_id IN (?) GROUP BY message_id, reaction_type',
      [ids],
    );
    for (const r of rows) counts.set(r.message_id, { ...counts.get(r.message_id), [r.reaction_type]: Number(r.n) });
    const [own] = await pool.query(
      'SELECT message_id, reaction_type FROM private_message_reactions WHERE user_id = ? AND message_id IN (?)',
      [viewer, ids],
    );
    for (const r of own) mine.set(r.message_id, r.reaction_type);
  }

  return {
    success: true,
    data: {
      data: messages.map((m) => {
        const sender = users.get(m.sender_id);
        const parent = m.parent_id ? parents.get(m.parent_id) : null;
        const parentSender = parent ? users.get(parent.sender_id) : null;
        return {
          id: m.id,
          sender_id: m.sender_id,
          receiver_id: m.receiver_id,
          sender_username: sender?.username ?? '',
          sender_avatar: avatarOf(sender),
          content: m.content,
          media: m.media,
          media_type: m.media_type,
          is_mine: m.sender_id === viewer,
          is_read: Boolean(m.is_read),
          created_at: m.created_at,
          edited_at: m.edited_at,
          expires_at: m.expires_at,
          parent_id: m.parent_id,
          parent_content: parent ? parent.content : null,
          parent_sender_username: parentSender?.username ?? null,
          parent_username: parentSender?.username ?? null,
          reactions_summary: counts.get(m.id) ?? {},
          user_reaction: mine.get(m.id) ?? null,
        };
      }),
      meta: { current_page: 1, per_page: PER_PAGE, total: Number(total), total_pages: Math.ceil(Number(total) / PER_PAGE) },
    },
    conversation: {
      user_id: peer.id,
      username: peer.username,
      avatar: avatarOf(peer),
      auto_delete_time: Number(settings?.auto_delete_time ?? 0),
    },
  };
}
