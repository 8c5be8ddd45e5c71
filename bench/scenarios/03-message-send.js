// POST messages.php: send a private message to a user (the message row plus both sides' conversation rows).
import { login } from '../lib.js';

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
  await ctx.pool.query('UPDATE conversations SET auto_delete_time = 0 WHERE (user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)', [
    me.userId,
    peer.userId,
    peer.userId,
    me.userId,
  ]);
  return { me, peer };
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
 * The statements of PrivateMessageService.send and SqlPrivateMessageRepository.create, in order and, like
 * Plaza, each in its own autocommit: recipient lookup, auto-delete setting, the message row, INSERT IGNORE of
 * both conversation rows, and the last-message update of both. (The push goes to a logging sender: no SQL.)
 * Expect a few 500s on both sides: every connection writes the same conversation, and the INSERT IGNORE
 * (S locks in primary-key order) and the UPDATE (X locks through the `peer_id` foreign-key index, in the
 * other order) deadlock now and then. The floor keeps Plaza's statements so the ratio stays like for like.
 */
export async function floor(ctx) {
  const { pool } = ctx;
  const senderId = ctx.me.userId;
  const receiverId = ctx.peer.userId;
  const [[recipient]] = await pool.query('SELECT * FROM users WHERE id = ?', [receiverId]);
  if (!recipient) throw new Error('recipient missing');
  const [[conv]] = await pool.query('SELECT auto_delete_time FROM conversations WHERE user_id = ? AND peer_id = ?', [senderId, receiverId]);
  const minutes = Number(conv?.auto_delete_time ?? 0);
  const now = Date.now();
  const at = sqlTime(now);
  const expiresAt = minutes > 0 ? sqlTime(now + minutes * 60_000) : null;
  const [r] = await pool.query(
    'INSERT INTO private_messages (sender_id, receiver_id, content, media, media_type, parent_id, created_at, expires_at, user_low, user_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [senderId, receiverId, CONTENT, null, null, null, at, expiresAt, Math.min(senderId, receiverId), Math.max(senderId, receiverId)],
  );
  await pool.query('INSERT IGNORE INTO conversations (user_id, peer_id, last_message_id, last_message_at) VALUES (?, ?, NULL, NULL), (?, ?, NULL, NULL)', [
    senderId,
    receiverId,
    receiverId,
    senderId,
  ]);
  await pool.query(
    'UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE (user_id = ? AND peer_id = ?) OR (user_id = ? AND peer_id = ?)',
    [r.insertId, at, senderId, receiverId, receiverId, senderId],
  );
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
