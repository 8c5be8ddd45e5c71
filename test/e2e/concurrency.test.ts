import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aComment, aFriendRequest, aGroupMessage, aMessage, aMessageGroup, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Every state transition under N identical requests fired at once, a few rounds each, then the exact
 * state in the database and the notifications raised. On MariaDB the requests really overlap (this
 * is where read-then-write races, duplicate keys and double notifications show); on SQLite the
 * server's single connection serialises them, and the same assertions hold trivially.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const N = 20;
const ROUNDS = 3;

/** Fires `n` requests at once; none may fail on our side. */
async function burst(n: number, request: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  const failures = answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`);
  expect(failures, 'answers of 500 and above').toEqual([]);
  return answers;
}

const succeeded = (answers: ApiResponse[]) => answers.filter((a) => a.status === 200 && a.body?.success === true);
const refused = (answers: ApiResponse[]) => answers.filter((a) => !(a.status === 200 && a.body?.success === true));
const codes = (answers: ApiResponse[]) => [...new Set(answers.map((a) => a.body?.code))];

async function rounds(work: (round: number) => Promise<void>) {
  for (let round = 0; round < ROUNDS; round++) await work(round);
}

async function users(n: number): Promise<TestUser[]> {
  return Promise.all(Array.from({ length: n }, () => aUser(t.api)));
}

/** Notifications of `type` that `to` received from `from`. */
async function notifications(to: TestUser, type: string, from?: TestUser): Promise<number> {
  let q = t.database.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', to.id)
    .where('type', '=', type);
  if (from) q = q.where('from_user_id', '=', from.id);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function friendRows(a: TestUser, b: TestUser) {
  return t.database.db
    .selectFrom('friend_requests')
    .select(['id', 'sender_id', 'receiver_id', 'status'])
    .where((eb) =>
      eb.or([
        eb.and([eb('sender_id', '=', a.id), eb('receiver_id', '=', b.id)]),
        eb.and([eb('sender_id', '=', b.id), eb('receiver_id', '=', a.id)]),
      ]),
    )
    .execute();
}

/** The code of the reset mail sent to `u` (the mail may leave just after the answer). */
async function resetCodeSentTo(u: TestUser): Promise<string> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const mail = t.mailer.sent.findLast((m) => m.to === u.email);
    const code = mail?.text.split('\n').find((l) => /^[A-Za-z0-9_-]{40,}$/.test(l.trim()));
    if (code) return code.trim();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no reset mail reached ${u.email}`);
}

async function postRow(id: number) {
  return t.database.db
    .selectFrom('posts')
    .select(['likes_count', 'shares_count', 'comments_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('accounts', () => {
  it(`refreshing one token ${N} times at once yields exactly one new token`, async () => {
    await rounds(async () => {
      const u = await aUser(t.api);
      const answers = await burst(N, () => t.api.post('auth.php?action=refresh', {}, { token: u.token }));
      expect(succeeded(answers)).toHaveLength(1);
      expect(refused(answers).map((a) => a.status)).toEqual(Array(N - 1).fill(401));
      const live = await t.database.db
        .selectFrom('access_tokens')
        .select('id')
        .where('user_id', '=', u.id)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
      const fresh = succeeded(answers)[0].body.token as string;
      expect((await t.api.get('users.php', { token: fresh })).status).toBe(200);
      expect((await t.api.get('users.php', { token: u.token })).status).toBe(401);
    });
  });

  it(`revoking one token ${N} times at once revokes it once`, async () => {
    await rounds(async () => {
      const u = await aUser(t.api);
      const answers = await burst(N, () => t.api.post('auth.php?action=revoke', {}, { token: u.token }));
      expect(succeeded(answers)).toHaveLength(1);
      expect(refused(answers).map((a) => a.status)).toEqual(Array(N - 1).fill(401));
      expect((await t.api.get('users.php', { token: u.token })).status).toBe(401);
    });
  });

  it(`registering one username, or one e-mail, ${N} times at once creates one account and refuses the rest`, async () => {
    await rounds(async (round) => {
      const tag = `${Date.now().toString(36)}${round}`;
      const sameName = await burst(N, (i) =>
        t.api.post('auth.php?action=register', {
          username: `race_${tag}`,
          email: `race_${tag}_${i}@example.test`,
          password: 'correct horse battery',
        }),
      );
      expect(succeeded(sameName)).toHaveLength(1);
      // 409, or 200 with success false: the answer's status is the HTTP layer's choice (issue 16, item 11).
      expect(refused(sameName).every((a) => a.status === 409 || a.status === 200)).toBe(true);
      expect(codes(refused(sameName))).toEqual(['username_taken']);

      const sameMail = await burst(N, (i) =>
        t.api.post('auth.php?action=register', {
          username: `mail_${tag}_${i}`,
          email: `Mail_${tag}@example.test`,
          password: 'correct horse battery',
        }),
      );
      expect(succeeded(sameMail)).toHaveLength(1);
      expect(codes(refused(sameMail))).toEqual(['email_taken']);

      const rows = await t.database.db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('username', '=', `race_${tag}`), eb('email', '=', `mail_${tag}@example.test`)]))
        .execute();
      expect(rows).toHaveLength(2);
    });
  });

  it(`using one password-reset code ${N} times at once changes the password once`, async () => {
    await rounds(async () => {
      const u = await aUser(t.api);
      await t.api.post('auth.php?action=forgot_password', { email: u.email });
      const code = await resetCodeSentTo(u);
      const answers = await burst(N, (i) => t.api.post('auth.php?action=reset_password', { token: code, password: `new password ${i}` }));
      const won = succeeded(answers);
      expect(won).toHaveLength(1);
      expect(codes(refused(answers))).toEqual(['invalid_reset_token']);
      const winner = answers.indexOf(won[0]);
      expect((await t.api.post('auth.php', { username: u.username, password: `new password ${winner}` })).body.success).toBe(true);
    });
  });
});

describe('friends', () => {
  it(`${N} identical friend requests make one request and one notification`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const answers = await burst(N, () => t.api.post('friends.php', { action: 'send', user_id: y.id }, { token: x.token }));
      expect(succeeded(answers)).toHaveLength(N);
      expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(1);
      expect((await friendRows(x, y)).map((r) => r.status)).toEqual(['pending']);
      expect(await notifications(y, 'friend_request', x)).toBe(1);
    });
  });

  it(`${N} requests sent both ways at once make one friendship`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const answers = await burst(N, (i) =>
        i % 2 === 0
          ? t.api.post('friends.php', { action: 'send', user_id: y.id }, { token: x.token })
          : t.api.post('friends.php', { action: 'send', user_id: x.id }, { token: y.token }),
      );
      // The first asks, the first of the other side accepts, and everyone after them learns they are friends.
      expect(answers.filter((a) => a.body?.status === 'accepted')).toHaveLength(1);
      expect(codes(refused(answers)).filter((c) => c !== 'already_friends')).toEqual([]);
      const rows = await friendRows(x, y);
      expect(rows.map((r) => r.status)).toEqual(['accepted']);
      const [asker, accepter] = rows[0].sender_id === x.id ? [x, y] : [y, x];
      expect(await notifications(accepter, 'friend_request', asker)).toBe(1);
      expect(await notifications(asker, 'friend_accept', accepter)).toBe(1);
      expect(await notifications(asker, 'friend_request')).toBe(0);
    });
  });

  it(`${N} accepts of one request make one transition and one friend_accept notification`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const { requestId } = await aFriendRequest(t.api, x, y);
      const answers = await burst(N, () => t.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: y.token }));
      expect(succeeded(answers)).toHaveLength(1);
      expect(refused(answers).map((a) => a.status)).toEqual(Array(N - 1).fill(409));
      expect((await friendRows(x, y)).map((r) => r.status)).toEqual(['accepted']);
      expect(await notifications(x, 'friend_accept', y)).toBe(1);
    });
  });

  it(`${N} accepts and rejects of one request at once: one of them wins, the state and notifications follow it`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const { requestId } = await aFriendRequest(t.api, x, y);
      const answers = await burst(N, (i) =>
        t.api.post('friends.php', { action: i % 2 ? 'accept' : 'reject', request_id: requestId }, { token: y.token }),
      );
      const won = succeeded(answers);
      expect(won).toHaveLength(1);
      const accepted = answers.indexOf(won[0]) % 2 === 1;
      expect((await friendRows(x, y)).map((r) => r.status)).toEqual([accepted ? 'accepted' : 'rejected']);
      expect(await notifications(x, 'friend_accept', y)).toBe(accepted ? 1 : 0);
    });
  });

  it(`the addressee accepting while the sender withdraws (${N} at once) never leaves a pending request or two rows`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const { requestId } = await aFriendRequest(t.api, x, y);
      const answers = await burst(N, (i) =>
        i % 2
          ? t.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: y.token })
          : t.api.delete(`friends.php?user_id=${y.id}`, undefined, { token: x.token }),
      );
      const accepts = answers.filter((_, i) => i % 2 === 1);
      const rows = await friendRows(x, y);
      expect(rows.length).toBeLessThanOrEqual(1);
      // An accept can only win before any withdrawal, and the withdrawals after it end the friendship.
      expect(rows.filter((r) => r.status !== 'rejected')).toEqual([]);
      expect(await notifications(x, 'friend_accept', y)).toBe(succeeded(accepts).length);
      expect(succeeded(accepts).length).toBeLessThanOrEqual(1);
    });
  });
});

describe('follows', () => {
  it(`${N} identical follows make one relation and one notification`, async () => {
    await rounds(async () => {
      const [fan, star] = await users(2);
      const answers = await burst(N, () => t.api.post('follows.php', { user_id: star.id }, { token: fan.token }));
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db
        .selectFrom('follows')
        .select('follower_id')
        .where('follower_id', '=', fan.id)
        .where('followee_id', '=', star.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(await notifications(star, 'follow', fan)).toBe(1);
    });
  });
});

describe('messaging groups', () => {
  const G = 'message_groups.php';

  it(`${N} identical invitations by a member make one request, and ${N} approvals of it add the member once`, async () => {
    await rounds(async () => {
      const [admin, member, invited] = await users(3);
      const { id: gid } = await aMessageGroup(t.api, admin, [member]);
      const asked = await burst(N, () => t.api.post(`${G}?path=${gid}/members`, { user_id: invited.id }, { token: member.token }));
      expect(succeeded(asked)).toHaveLength(N);
      const requests = await t.database.db
        .selectFrom('message_group_requests')
        .select('id')
        .where('group_id', '=', gid)
        .where('user_id', '=', invited.id)
        .execute();
      expect(requests).toHaveLength(1);
      expect(new Set(asked.map((a) => a.body.request_id))).toEqual(new Set([requests[0].id]));

      const approved = await burst(N, () =>
        t.api.post(`${G}?path=${gid}/requests/${requests[0].id}/approve`, undefined, { token: admin.token }),
      );
      expect(succeeded(approved)).toHaveLength(1);
      expect(refused(approved).map((a) => a.status)).toEqual(Array(N - 1).fill(404));
      const members = await t.database.db
        .selectFrom('message_group_members')
        .select('user_id')
        .where('group_id', '=', gid)
        .where('user_id', '=', invited.id)
        .execute();
      expect(members).toHaveLength(1);
      expect(await t.database.db.selectFrom('message_group_requests').select('id').where('group_id', '=', gid).execute()).toEqual([]);
    });
  });

  it(`${N} identical additions by an admin add the member once`, async () => {
    await rounds(async () => {
      const [admin, other] = await users(2);
      const { id: gid } = await aMessageGroup(t.api, admin);
      const answers = await burst(N, () => t.api.post(`${G}?path=${gid}/members`, { user_id: other.id }, { token: admin.token }));
      expect(succeeded(answers)).toHaveLength(N);
      expect(answers.filter((a) => a.body.added === true)).toHaveLength(1);
      const members = await t.database.db.selectFrom('message_group_members').select('user_id').where('group_id', '=', gid).execute();
      expect(members.map((m) => m.user_id).sort((a, b) => a - b)).toEqual([admin.id, other.id].sort((a, b) => a - b));
    });
  });

  it(`${N} messages sent at once are all stored and the group points at the newest`, async () => {
    await rounds(async () => {
      const [admin, member] = await users(2);
      const { id: gid } = await aMessageGroup(t.api, admin, [member]);
      const answers = await burst(N, (i) =>
        t.api.post(`${G}?path=${gid}/messages`, { content: `m${i}` }, { token: (i % 2 ? admin : member).token }),
      );
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db.selectFrom('group_messages').select('id').where('group_id', '=', gid).execute();
      expect(rows).toHaveLength(N);
      const group = await t.database.db
        .selectFrom('message_groups')
        .select('last_message_id')
        .where('id', '=', gid)
        .executeTakeFirstOrThrow();
      expect(Number(group.last_message_id)).toBe(Math.max(...rows.map((r) => Number(r.id))));
    });
  });

  it(`${N} reactions of one member on one message, identical or not, leave one reaction`, async () => {
    await rounds(async () => {
      const [admin, member] = await users(2);
      const { id: gid } = await aMessageGroup(t.api, admin, [member]);
      const { id: mid } = await aGroupMessage(t.api, admin, gid);
      const kinds = ['like', 'love', 'haha', 'wow'];
      const answers = await burst(N, (i) =>
        t.api.post(`${G}?path=messages/${mid}/reactions`, { reaction_type: kinds[i % kinds.length] }, { token: member.token }),
      );
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db
        .selectFrom('group_message_reactions')
        .select('reaction_type')
        .where('message_id', '=', mid)
        .execute();
      expect(rows).toHaveLength(1);
      expect(kinds).toContain(rows[0].reaction_type);
    });
  });
});

describe('private messages', () => {
  it(`${N} edits and deletions of one message at once: it ends deleted, and no edit fails on our side`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const { id: mid } = await aMessage(t.api, x, y);
      const answers = await burst(N, (i) =>
        i % 2
          ? t.api.put(`messages.php?id=${mid}`, { content: `edit ${i}` }, { token: x.token })
          : t.api.delete(`messages.php?id=${mid}`, undefined, { token: x.token }),
      );
      expect(refused(answers).every((a) => a.status === 404)).toBe(true);
      expect(await t.database.db.selectFrom('private_messages').select('id').where('id', '=', mid).execute()).toEqual([]);
    });
  });

  it(`${N} messages sent both ways at once are all stored and both sides point at the newest`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const answers = await burst(N, (i) =>
        t.api.post('messages.php', { user_id: (i % 2 ? y : x).id, content: `m${i}` }, { token: (i % 2 ? x : y).token }),
      );
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db
        .selectFrom('private_messages')
        .select('id')
        .where('user_low', '=', Math.min(x.id, y.id))
        .where('user_high', '=', Math.max(x.id, y.id))
        .execute();
      expect(rows).toHaveLength(N);
      const newest = Math.max(...rows.map((r) => Number(r.id)));
      const sides = await t.database.db
        .selectFrom('conversations')
        .select('last_message_id')
        .where('user_id', 'in', [x.id, y.id])
        .where('peer_id', 'in', [x.id, y.id])
        .execute();
      expect(sides.map((s) => Number(s.last_message_id))).toEqual([newest, newest]);
    });
  });

  it(`${N} reactions of one user on one message, identical or not, leave one reaction`, async () => {
    await rounds(async () => {
      const [x, y] = await users(2);
      const { id: mid } = await aMessage(t.api, x, y);
      const kinds = ['like', 'love', 'haha', 'wow'];
      const answers = await burst(N, (i) =>
        t.api.post('messages.php?action=react', { message_id: mid, reaction_type: kinds[i % kinds.length] }, { token: y.token }),
      );
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db
        .selectFrom('private_message_reactions')
        .select('reaction_type')
        .where('message_id', '=', mid)
        .execute();
      expect(rows).toHaveLength(1);
      expect(kinds).toContain(rows[0].reaction_type);
    });
  });
});

describe('posts', () => {
  it(`${N} identical reactions make one reaction, one like counted and one notification`, async () => {
    await rounds(async () => {
      const [author, fan] = await users(2);
      const { id } = await aPost(t.api, author);
      const answers = await burst(N, () => t.api.post('reactions.php', { post_id: id, reaction_type: 'love' }, { token: fan.token }));
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db.selectFrom('post_reactions').select('reaction_type').where('post_id', '=', id).execute();
      expect(rows.map((r) => r.reaction_type)).toEqual(['love']);
      expect((await postRow(id)).likes_count).toBe(1);
      expect(await notifications(author, 'reaction', fan)).toBe(1);
    });
  });

  it(`${N} different reactions of one user at once leave one reaction counted once`, async () => {
    await rounds(async () => {
      const [author, fan] = await users(2);
      const { id } = await aPost(t.api, author);
      const kinds = ['love', 'haha', 'wow', 'sad', 'angry'];
      await burst(N, (i) => t.api.post('reactions.php', { post_id: id, reaction_type: kinds[i % kinds.length] }, { token: fan.token }));
      const rows = await t.database.db.selectFrom('post_reactions').select('reaction_type').where('post_id', '=', id).execute();
      expect(rows).toHaveLength(1);
      expect((await postRow(id)).likes_count).toBe(1);
    });
  });

  it(`${N} identical likes make one like and one notification`, async () => {
    await rounds(async () => {
      const [author, fan] = await users(2);
      const { id } = await aPost(t.api, author);
      const answers = await burst(N, () => t.api.post('likes.php', { post_id: id }, { token: fan.token }));
      expect(succeeded(answers)).toHaveLength(N);
      expect(answers.map((a) => a.body.likes_count)).toEqual(Array(N).fill(1));
      const rows = await t.database.db.selectFrom('post_reactions').select('reaction_type').where('post_id', '=', id).execute();
      expect(rows.map((r) => r.reaction_type)).toEqual(['like']);
      expect(await notifications(author, 'like', fan)).toBe(1);
    });
  });

  it(`likes of ${N} users at once are all counted`, async () => {
    const [author, ...fans] = await users(N + 1);
    await rounds(async () => {
      const { id } = await aPost(t.api, author);
      const answers = await burst(N, (i) => t.api.post('likes.php', { post_id: id }, { token: fans[i].token }));
      expect(succeeded(answers)).toHaveLength(N);
      expect((await postRow(id)).likes_count).toBe(N);
      const notes = await t.database.db
        .selectFrom('notifications')
        .select('from_user_id')
        .where('post_id', '=', id)
        .where('type', '=', 'like')
        .execute();
      expect(notes.map((n) => n.from_user_id).sort((a, b) => Number(a) - Number(b))).toEqual(fans.map((f) => f.id).sort((a, b) => a - b));
    });
  });

  it(`${N} identical bookmarks make one bookmark`, async () => {
    await rounds(async () => {
      const [author, reader] = await users(2);
      const { id } = await aPost(t.api, author);
      const answers = await burst(N, () => t.api.post('bookmarks.php', { post_id: id }, { token: reader.token }));
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db.selectFrom('bookmarks').select('post_id').where('user_id', '=', reader.id).execute();
      expect(rows).toHaveLength(1);
    });
  });

  it(`${N} identical shares make one share, one wall entry, one count and one notification`, async () => {
    await rounds(async () => {
      const [author, fan] = await users(2);
      const { id } = await aPost(t.api, author);
      const answers = await burst(N, () => t.api.post('shares.php', { post_id: id }, { token: fan.token }));
      expect(succeeded(answers)).toHaveLength(N);
      expect(answers.filter((a) => a.body.shared === true)).toHaveLength(1);
      expect(await t.database.db.selectFrom('shares').select('user_id').where('post_id', '=', id).execute()).toHaveLength(1);
      const wall = await t.database.db
        .selectFrom('wall_entries')
        .select('id')
        .where('post_id', '=', id)
        .where('user_id', '=', fan.id)
        .execute();
      expect(wall).toHaveLength(1);
      expect((await postRow(id)).shares_count).toBe(1);
      expect(await notifications(author, 'share', fan)).toBe(1);
    });
  });

  it(`${N} deletions of one comment with replies at once take it off the post's count once`, async () => {
    await rounds(async () => {
      const author = await aUser(t.api);
      const post = await aPost(t.api, author);
      const root = await aComment(t.api, author, post);
      const reply = await aComment(t.api, author, post, { parent_id: root.id });
      await aComment(t.api, author, post, { parent_id: reply.id });
      await aComment(t.api, author, post);
      const answers = await burst(N, (i) =>
        t.api.delete(`comments.php?id=${i % 2 ? root.id : reply.id}`, undefined, { token: author.token }),
      );
      expect(refused(answers).every((a) => a.status === 404)).toBe(true);
      const left = await t.database.db.selectFrom('comments').select('id').where('post_id', '=', post.id).execute();
      expect(left).toHaveLength(1);
      expect(Number((await postRow(post.id)).comments_count)).toBe(1);
    });
  });

  it(`${N} identical reactions to a comment make one reaction, counted once, and one notification`, async () => {
    await rounds(async () => {
      const [author, fan] = await users(2);
      const post = await aPost(t.api, author);
      const { id: cid } = await aComment(t.api, author, post);
      const answers = await burst(N, () =>
        t.api.post('comment_reactions.php', { comment_id: cid, comment_type: 'post', reaction_type: 'love' }, { token: fan.token }),
      );
      expect(succeeded(answers)).toHaveLength(N);
      const rows = await t.database.db
        .selectFrom('comment_reactions')
        .select('reaction_type')
        .where('comment_type', '=', 'post')
        .where('comment_id', '=', cid)
        .execute();
      expect(rows).toHaveLength(1);
      const comment = await t.database.db.selectFrom('comments').select('reactions_count').where('id', '=', cid).executeTakeFirstOrThrow();
      expect(Number(comment.reactions_count)).toBe(1);
      expect(await notifications(author, 'reaction', fan)).toBe(1);
    });
  });
});
