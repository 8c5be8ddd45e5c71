// POST messages.php: send a private message to a user (the message row plus both sides' conversation rows).
import { inTransaction, login } from '../lib.js';

export const name = 'message-send';

const CONTENT = 'Benchmark message: are we still on for the plaza tonight?';
const sqlTime = (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export async function seed(ctx) {
  const me = await login(ctx.plazaUrl, 'bench_msgsend_me');
  const peer = await login(ctx.plazaUrl, 'bench_msgsend_peer');
  // The conversation already exists, as it does for nearly every real send.
  const res = await fetch(`${ctx.plazaUrl}/api/v1/messages.php`, {
    method: 'POST',
    headers: { authorization: `Bearer ${peer.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: me.userId, content: 'hello, first message' }),
  });
  const body = await res.json();
  if (!body.message_id) throw new Error(`bench seed send failed: ${JSON.stringify(body)}`);
  // No auto-delete left behind by a previous run: the send would then compute expires_at.
  await ctx.pool.query(
    'UPDATE conversations SET auto_delete_time = 0 WHERE (user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)',
    [me.userId, peer.userId, peer.userId, me.userId],
  );
  return { me, peer };
}

/** The messages the loads sent (Plaza's and the floor's); the first message and the conversation stay. */
export async function cleanup(ctx) {
  await ctx.pool.query('DELETE FROM private_messages WHERE sender_id = ? AND receiver_id = ? AND content = ?', [
    ctx.me.userId,
    ctx.peer.userId,
    CONTENT,
  ]);
  const [[last]] = await ctx.pool.query(
    'SELECT id, created_at FROM private_messages WHERE user_low = ? AND user_high = ? ORDER BY id DESC LIMIT 1',
    [Math.min(ctx.me.userId, ctx.peer.userId), Math.max(ctx.me.userId, ctx.peer.userId)],
  );
  await ctx.pool.query(
    'UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE (user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)',
    [last?.id ?? null, last?.created_at ?? null, ctx.me.userId, ctx.peer.userId, ctx.peer.userId, ctx.me.userId],
  );
}

export function plaza(ctx) {
  return {
    path: '/api/v1/messages.php',
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.me.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: ctx.peer.userId, content: CONTENT }),
  };
}

/**
 * The statements of PrivateMessageService.send and SqlPrivateMessageRepository.create, in order: the
 * recipient with the conversation's auto-delete setting (one read, docs/decisions/0255), then one
 * transaction with the message row and the upsert of both conversation sides. (The push goes to a
 * logging sender: no SQL, not even the recipient's switches.) Every connection writes the same
 * conversation, so this also measures how the send holds up under contention.
 */
export async function floor(ctx) {
  const { pool } = ctx;
  const senderId = ctx.me.userId;
  const receiverId = ctx.peer.userId;
  const [accounts] = await pool.query(
    `SELECT u.*, c.cleared_before_id AS conversation_cleared_before_id, c.auto_delete_time AS conversation_auto_delete_time
     FROM users u LEFT JOIN conversations c ON c.user_id = ? AND c.peer_id = ? WHERE u.id IN (?, ?)`,
    [senderId, receiverId, receiverId, senderId],
  );
  const recipient = accounts.find((u) => Number(u.id) === receiverId);
  if (!recipient) throw new Error('recipient missing');
  const minutes = Number(recipient.conversation_auto_delete_time ?? 0);
  const now = Date.now();
  const at = sqlTime(now);
  const expiresAt = minutes > 0 ? sqlTime(now + minutes * 60_000) : null;
  // One transaction: the message, then both conversation sides upserted in primary-key order, only
  // moving the last message forwards (what SqlPrivateMessageRepository.create runs).
  const r = await inTransaction(pool, async (conn) => {
    const [r] = await conn.query(
      'INSERT INTO private_messages (sender_id, receiver_id, content, media, media_type, parent_id, created_at, expires_at, user_low, user_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [senderId, receiverId, CONTENT, null, null, null, at, expiresAt, Math.min(senderId, receiverId), Math.max(senderId, receiverId)],
    );
    const [low, high] = senderId < receiverId ? [senderId, receiverId] : [receiverId, senderId];
    const id = r.insertId;
    await conn.query(
      `INSERT INTO conversations (user_id, peer_id, last_message_id, last_message_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE
         last_message_at = CASE WHEN COALESCE(last_message_id, 0) < ? THEN ? ELSE last_message_at END,
         last_message_id = CASE WHEN COALESCE(last_message_id, 0) < ? THEN ? ELSE last_message_id END`,
      [low, high, id, at, high, low, id, at, id, at, id, id],
    );
    return r;
  });
  const id = r.insertId;
  return {
    success: true,
    message_id: id,
    id,
    data: {
      id,
      sender_id: senderId,
      receiver_id: receiverId,
      sender_username: 'bench_msgsend_me',
      sender_avatar: 'default.svg',
      content: CONTENT,
      media: null,
      media_type: null,
      is_mine: true,
      is_read: false,
      created_at: at,
      edited_at: null,
      expires_at: expiresAt,
      parent_id: null,
      parent_content: null,
      parent_sender_username: null,
      parent_username: null,
      reactions_summary: {},
      user_reaction: null,
    },
  };
}
