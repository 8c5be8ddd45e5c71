import { randomUUID } from 'node:crypto';
import { SqlRemoteInteractionRepository } from '@plaza/adapters-mysql/federation';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { aComment, aPost, aUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Inbound interactions under 20 deliveries at once (on MariaDB they really overlap): one Note is one
 * comment, one Like one reaction, one Announce one share, and the post's counters say so.
 */
let world: FederationWorld;
let server: TestServer;
let strict: StrictServer;
let origin: string;
const N = 20;
const AS = 'https://www.w3.org/ns/activitystreams';

beforeAll(async () => {
  world = await FederationWorld.start({ peer: false });
  ({ server, strict, origin } = world);
});
afterAll(() => world?.close());

/** Several workers draining the queue at once, as several instances do. */
const drainInParallel = async () => {
  await Promise.all(Array.from({ length: 4 }, () => server.runJob('federation-queue')));
  for (let i = 0; i < 3; i++) await server.runJob('federation-queue');
};

it('the same Create(Note) delivered 20 times at once, and 20 Creates of one Note, store one comment', async () => {
  const u = await aUser(server.api);
  const postId = (await aPost(server.api, u, { content: 'answer me' })).id;
  const note = {
    id: `${strict.origin}/notes/${randomUUID()}`,
    type: 'Note',
    attributedTo: strict.actorUrl,
    content: '<p>once</p>',
    inReplyTo: `${origin}/api/v1/posts.php?id=${postId}`,
  };
  const create = { '@context': AS, id: newActivityId(strict.origin), type: 'Create', actor: strict.actorUrl, object: note };
  const same = await Promise.all(Array.from({ length: N }, () => strict.signedPost(`${origin}/fediverse/inbox/${u.username}`, create)));
  expect(same.filter((r) => r.status >= 500)).toEqual([]);
  const distinct = await Promise.all(
    Array.from({ length: N }, () => strict.signedPost(`${origin}/fediverse/inbox`, { ...create, id: newActivityId(strict.origin) })),
  );
  expect(distinct.every((r) => r.status === 202)).toBe(true);
  await drainInParallel();
  const rows = await server.database.db.selectFrom('comments').select(['id', 'content']).where('remote_object_id', '=', note.id).execute();
  expect(rows.map((r) => r.content)).toEqual(['once']);
  expect((await server.api.get(`posts.php?id=${postId}`, { token: u.token })).body.data.comments_count).toBe(1);
});

it('20 concurrent writes of one Note, Like and Announce at the repository store one row each and count once', async () => {
  const u = await aUser(server.api);
  const postId = (await aPost(server.api, u, { content: 'race' })).id;
  const repo = new SqlRemoteInteractionRepository(server.database.db, server.database.dialect);
  const objectId = `${strict.origin}/notes/${randomUUID()}`;
  const at = '2026-11-27 00:00:00';
  const comments = await Promise.all(
    Array.from({ length: N }, () =>
      repo.addComment({ post_id: postId, parent_id: null, actor_url: strict.actorUrl, object_id: objectId, content: 'x', created_at: at }),
    ),
  );
  expect(comments.filter((c) => c !== null)).toHaveLength(1);
  const likeId = newActivityId(strict.origin);
  const likes = await Promise.all(Array.from({ length: N }, () => repo.react(postId, strict.actorUrl, likeId, 'like', at)));
  expect(likes.filter((c) => c === 'added')).toHaveLength(1);
  const shareId = newActivityId(strict.origin);
  const shares = await Promise.all(Array.from({ length: N }, () => repo.share(postId, strict.actorUrl, shareId, at)));
  expect(shares.filter(Boolean)).toHaveLength(1);
  const undos = await Promise.all(Array.from({ length: N }, () => repo.unreact(likeId, strict.actorUrl)));
  expect(undos.filter(Boolean)).toHaveLength(1);
  const post = await server.database.db
    .selectFrom('posts')
    .select(['likes_count', 'comments_count', 'shares_count'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  expect({ ...post }).toEqual({ likes_count: 0, comments_count: 1, shares_count: 1 });
});

it('20 deliveries of one Like of a comment at once count once; 20 concurrent writes and Undos of another count and take off once (docs/decisions/0241)', async () => {
  const u = await aUser(server.api);
  const postId = (await aPost(server.api, u, { content: 'comment below' })).id;
  const commentId = (await aComment(server.api, u, postId, { content: 'like me' })).id;
  const like = {
    '@context': AS,
    id: newActivityId(strict.origin),
    type: 'Like',
    actor: strict.actorUrl,
    object: `${origin}/fediverse/comment.php?id=${commentId}`,
  };
  const count = async () =>
    Number(
      (await server.database.db.selectFrom('comments').select('reactions_count').where('id', '=', commentId).executeTakeFirstOrThrow())
        .reactions_count,
    );
  const inbox = `${origin}/fediverse/inbox/${u.username}`;
  const likes = await Promise.all(Array.from({ length: N }, () => strict.signedPost(inbox, { ...like })));
  expect(likes.filter((r) => r.status >= 500)).toEqual([]);
  // Distinct Like ids of the same actor: one reaction per actor and comment.
  await Promise.all(Array.from({ length: N }, () => strict.signedPost(inbox, { ...like, id: newActivityId(strict.origin) })));
  await drainInParallel();
  expect(await count()).toBe(1);

  const repo = new SqlRemoteInteractionRepository(server.database.db, server.database.dialect);
  const raced = newActivityId(strict.origin);
  const other = `${strict.origin}/other-actor`;
  const added = await Promise.all(
    Array.from({ length: N }, () => repo.reactToComment(commentId, other, raced, 'love', '2026-11-27 00:00:00')),
  );
  expect(added.filter((c) => c === 'added')).toHaveLength(1);
  expect(await count()).toBe(2);
  const undone = await Promise.all(Array.from({ length: N }, () => repo.unreact(raced, other)));
  expect(undone.filter(Boolean)).toHaveLength(1);
  expect(await count()).toBe(1);
});
