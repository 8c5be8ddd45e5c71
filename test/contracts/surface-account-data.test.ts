import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { AccountDataPart, ExportRow } from '@plaza/domain/accounts';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { ManualClock } from '@plaza/domain';
import type { CommentType, SurfacePostStore } from '@plaza/domain/content';
import { groupPostStore } from '@plaza/domain/groups';
import { pagePostStore } from '@plaza/domain/pages';
import { aNewPage } from '@plaza/domain/pages/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository, SqlContentAccountData, SqlPostEngagementRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlGroupAccountData, SqlGroupCommentRepository, SqlGroupPostRepository, SqlGroupRepository } from '@plaza/adapters-mysql/groups';
import { FEDERATION_COUNTER_CONTRIBUTIONS, SqlRemoteInteractionRepository } from '@plaza/adapters-mysql/federation';
import { SqlPageAccountData, SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { TEST_DIALECT, type TestDatabase, useTestDatabase } from '../support/database.js';
import { aGroup } from '../support/surface-posts.js';

/**
 * One suite for the wall's, the groups' and the pages' share of a leaving or exporting user's posts,
 * comments and reactions (adapters-mysql surface-rows.ts, docs/decisions/0093 and 0225): every
 * surface erases and recounts the same way, and differs only where its comments do (nested or flat,
 * counting their reactions or not).
 */

const at = '2026-03-01 00:00:00';
const erasedAt = '2026-03-02 00:00:00';
const clock = new ManualClock('2026-03-01T00:00:00Z');

interface Counters {
  reactions: number;
  comments: number;
}

/** What tells one surface from another in the suite. */
interface SurfaceCase {
  /** The export section of the user's reactions to the surface's posts. */
  reactionsSection: string;
  /** Whether comments nest, so that an answered comment stays emptied. */
  nests: boolean;
  /** Whether the surface's comments count their reactions. */
  commentsCountReactions: boolean;
  open(db: TestDatabase['db'], dialect: TestDatabase['dialect'], creatorId: number): Promise<SurfaceWorld>;
}

/** One surface's part, its writes through its own repositories, and reads of its rows. */
interface SurfaceWorld {
  part: AccountDataPart;
  post(userId: number): Promise<number>;
  comment(postId: number, userId: number, parentId?: number): Promise<number>;
  react(postId: number, userId: number): Promise<void>;
  reactToComment(commentId: number, userId: number): Promise<void>;
  counters(postId: number): Promise<Counters | undefined>;
  comments(postId: number): Promise<{ id: number; content: string; reactions_count?: number }[]>;
  commentReactions(commentIds: number[]): Promise<number>;
}

const database = useTestDatabase();

/** Reads a surface's rows by its tables' names: the surfaces differ only in those. */
function reads(
  db: TestDatabase['db'],
  { type, posts, comments, counts }: { type: CommentType; posts: string; comments: string; counts: [string, string] },
) {
  const untyped = db as unknown as Kysely<any>;
  return {
    async counters(postId: number) {
      const row = await untyped.selectFrom(posts).select(counts).where('id', '=', postId).executeTakeFirst();
      return row && { reactions: Number(row[counts[0]]), comments: Number(row[counts[1]]) };
    },
    async comments(postId: number) {
      const rows = await untyped.selectFrom(comments).selectAll().where('post_id', '=', postId).orderBy('id').execute();
      return rows.map((r) => ({
        id: r.id,
        content: r.content,
        ...(r.reactions_count === undefined ? {} : { reactions_count: Number(r.reactions_count) }),
      }));
    },
    async commentReactions(ids: number[]) {
      if (ids.length === 0) return 0;
      const rows = await db
        .selectFrom('comment_reactions')
        .select('comment_id')
        .where('comment_type', '=', type)
        .where('comment_id', 'in', ids)
        .execute();
      return rows.length;
    },
  };
}

/** Group and page posts and comments are written through their SurfacePostStore, as the publishing core writes them. */
function storeWrites<P, C>(store: SurfacePostStore<P, C>, placeId: number): Pick<SurfaceWorld, 'post' | 'comment' | 'react'> {
  return {
    post: async (userId) =>
      store.postRef(await store.createPost(placeId, userId, { content: 'p', media: [], media_type: null, tags: [] }, at)).id,
    async comment(postId, userId, parentId) {
      const post = await store.findPost(postId);
      const parent = parentId === undefined ? null : await store.findComment(parentId);
      if (!post) throw new Error(`no post ${postId}`);
      return store.commentRef(await store.createComment(post, userId, parent, 'c', at)).id;
    },
    react: async (postId, userId) => void (await store.reactions.put(postId, userId, 'like', at)),
  };
}

const wall: SurfaceCase = {
  reactionsSection: 'reactions',
  nests: true,
  commentsCountReactions: true,
  async open(db, dialect) {
    const posts = new SqlPostRepository(db);
    const comments = new SqlCommentRepository(db, dialect);
    const engagement = new SqlPostEngagementRepository(db, dialect);
    return {
      part: new SqlContentAccountData(db),
      post: async (userId) =>
        (await posts.create({ user_id: userId, content: 'p', media: [], media_type: null, tags: [], created_at: at })).id,
      comment: async (postId, userId, parentId) =>
        (await comments.create({ post_id: postId, user_id: userId, parent_id: parentId ?? null, content: 'c', created_at: at })).id,
      react: async (postId, userId) => void (await engagement.react(postId, userId, 'like', at)),
      reactToComment: async (commentId, userId) => void (await comments.react('post', commentId, userId, 'like', at)),
      ...reads(db, { type: 'post', posts: 'posts', comments: 'comments', counts: ['likes_count', 'comments_count'] }),
    };
  },
};

type SurfaceFacts = Pick<SurfaceCase, 'reactionsSection' | 'nests' | 'commentsCountReactions'>;

/** A group's or a page's store, a place created by `creatorId`, and what else a new comment reaction moves. */
type OpenPlace<P, C> = (
  db: TestDatabase['db'],
  dialect: TestDatabase['dialect'],
  creatorId: number,
) => Promise<{ store: SurfacePostStore<P, C>; placeId: number; countCommentReaction?: (commentId: number) => Promise<void> }>;

/** Groups and pages write through their SurfacePostStore; reactions to their comments are comment_reactions rows. */
function placeCase<P, C>(
  tables: Parameters<typeof reads>[1],
  facts: SurfaceFacts,
  part: (db: TestDatabase['db']) => AccountDataPart,
  place: OpenPlace<P, C>,
): SurfaceCase {
  return {
    ...facts,
    async open(db, dialect, creatorId) {
      const { store, placeId, countCommentReaction } = await place(db, dialect, creatorId);
      const commentReactions = new SqlCommentRepository(db, dialect);
      return {
        part: part(db),
        ...storeWrites(store, placeId),
        async reactToComment(commentId, userId) {
          const change = await commentReactions.react(tables.type, commentId, userId, 'like', at);
          if (change === 'added') await countCommentReaction?.(commentId);
        },
        ...reads(db, tables),
      };
    },
  };
}

const groups = placeCase(
  { type: 'group', posts: 'group_posts', comments: 'group_comments', counts: ['likes_count', 'comments_count'] },
  { reactionsSection: 'group_post_reactions', nests: true, commentsCountReactions: false },
  (db) => new SqlGroupAccountData(db),
  async (db, dialect, creatorId) => ({
    store: groupPostStore(new SqlGroupPostRepository(db, dialect), new SqlGroupCommentRepository(db, dialect)),
    placeId: await aGroup(new SqlGroupRepository(db, dialect), creatorId),
  }),
);

const pages = placeCase(
  { type: 'page', posts: 'page_posts', comments: 'page_comments', counts: ['like_count', 'comment_count'] },
  { reactionsSection: 'page_reactions', nests: false, commentsCountReactions: true },
  (db) => new SqlPageAccountData(db),
  async (db, dialect, creatorId) => {
    const posts = new SqlPagePostRepository(db, dialect);
    const page = await new SqlPageRepository(db, dialect).create({ ...aNewPage(), created_by: creatorId, created_at: at });
    // As the pages' comment target does: the shared reaction row, then the page comment's own counter.
    return { store: pagePostStore(posts, clock), placeId: page.id, countCommentReaction: (id) => posts.adjustCommentReactions(id, 1) };
  },
);

async function collect(rows: AsyncIterable<ExportRow>): Promise<ExportRow[]> {
  const out: ExportRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const surfaces: [string, SurfaceCase][] = [
  ['the wall', wall],
  ['groups', groups],
  ['pages', pages],
];

describe.each(surfaces)(`a surface's account data: %s (${TEST_DIALECT})`, (_name, surfaceCase) => {
  /** A leaving user, two others, and the surface (a place created by the first other where there are places). */
  async function world() {
    const { db, dialect } = database();
    const users = new SqlUserRepository(db);
    const [leaving, other, third] = [
      (await users.create(aNewUser())).id,
      (await users.create(aNewUser())).id,
      (await users.create(aNewUser())).id,
    ];
    return { surface: await surfaceCase.open(db, dialect, other), leaving, other, third };
  }

  it("erases the user's posts with their comments, reactions and the comments' reactions", async () => {
    const { surface, leaving, other, third } = await world();
    const own = await surface.post(leaving);
    const answer = await surface.comment(own, other);
    await surface.react(own, other);
    await surface.reactToComment(answer, third);

    await surface.part.erase(leaving, erasedAt);

    expect(await surface.counters(own)).toBeUndefined();
    expect(await surface.comments(own)).toEqual([]);
    expect(await surface.commentReactions([answer])).toBe(0);
  });

  it("takes the user's reactions and unanswered comments off others' posts and recounts them", async () => {
    const { surface, leaving, other, third } = await world();
    const theirs = await surface.post(other);
    await surface.react(theirs, leaving);
    await surface.react(theirs, third);
    const mine = await surface.comment(theirs, leaving);
    await surface.reactToComment(mine, third);
    const kept = await surface.comment(theirs, third);
    await surface.reactToComment(kept, leaving);
    await surface.reactToComment(kept, other);

    await surface.part.erase(leaving, erasedAt);

    expect(await surface.counters(theirs)).toEqual({ reactions: 1, comments: 1 });
    expect(await surface.comments(theirs)).toEqual([
      { id: kept, content: 'c', ...(surfaceCase.commentsCountReactions ? { reactions_count: 1 } : {}) },
    ]);
    expect(await surface.commentReactions([mine])).toBe(0);
    expect(await surface.commentReactions([kept])).toBe(1);
  });

  it('keeps an answered comment emptied under the tombstone where comments nest', async ({ skip }) => {
    const { surface, leaving, other, third } = await world();
    if (!surfaceCase.nests) skip();
    const theirs = await surface.post(other);
    const answered = await surface.comment(theirs, leaving);
    const reply = await surface.comment(theirs, third, answered);

    await surface.part.erase(leaving, erasedAt);

    expect((await surface.comments(theirs)).map((c) => [c.id, c.content])).toEqual([
      [answered, ''],
      [reply, 'c'],
    ]);
    expect(await surface.counters(theirs)).toEqual({ reactions: 0, comments: 2 });
  });

  it("exports the user's reactions to the surface's posts, and nobody else's", async () => {
    const { surface, leaving, other, third } = await world();
    const first = await surface.post(other);
    const second = await surface.post(third);
    await surface.react(second, leaving);
    await surface.react(first, leaving);
    await surface.react(first, other);

    expect(await collect(surface.part.rows(leaving, surfaceCase.reactionsSection))).toEqual([
      { post_id: first, reaction_type: 'like', created_at: expect.anything() },
      { post_id: second, reaction_type: 'like', created_at: expect.anything() },
    ]);
  });
});

describe(`the wall's counters after a user's erasure keep what federation adds (${TEST_DIALECT}, docs/decisions/0226)`, () => {
  const remoteActor = 'https://remote.example/users/ana';

  it('recounts likes, shares and comment reactions with the remote ones, as the rows list them', async () => {
    const { db, dialect } = database();
    const users = new SqlUserRepository(db);
    const [leaving, author] = [(await users.create(aNewUser())).id, (await users.create(aNewUser())).id];
    const posts = new SqlPostRepository(db);
    const comments = new SqlCommentRepository(db, dialect);
    const engagement = new SqlPostEngagementRepository(db, dialect);
    const remote = new SqlRemoteInteractionRepository(db, dialect);
    const post = (await posts.create({ user_id: author, content: 'p', media: [], media_type: null, tags: [], created_at: at })).id;
    const comment = (await comments.create({ post_id: post, user_id: author, parent_id: null, content: 'c', created_at: at })).id;
    await engagement.react(post, leaving, 'like', at);
    await remote.react(post, remoteActor, `${remoteActor}#like`, 'love', at);
    await engagement.share(post, leaving, at);
    await remote.share(post, remoteActor, `${remoteActor}#announce`, at);
    await comments.react('post', comment, leaving, 'like', at);
    await remote.reactToComment(comment, remoteActor, `${remoteActor}#comment-like`, 'like', at);

    await new SqlContentAccountData(db, FEDERATION_COUNTER_CONTRIBUTIONS).erase(leaving, erasedAt);

    const counters = await db.selectFrom('posts').select(['likes_count', 'shares_count']).where('id', '=', post).executeTakeFirstOrThrow();
    const commentRow = await db.selectFrom('comments').select('reactions_count').where('id', '=', comment).executeTakeFirstOrThrow();
    expect([Number(counters.likes_count), Number(counters.shares_count), Number(commentRow.reactions_count)]).toEqual([1, 1, 1]);
    // What the post and the comment list agrees with them: the remote rows alone are left.
    expect(await engagement.reactionCounts(post)).toEqual({ love: 1 });
    const shares = async (table: 'shares' | 'remote_shares') =>
      (await db.selectFrom(table).select('post_id').where('post_id', '=', post).execute()).length;
    expect([await shares('shares'), await shares('remote_shares')]).toEqual([0, 1]);
    expect(await comments.reactions('post', comment)).toEqual([]);
    expect((await remote.commentReactions(comment)).map((r) => r.reaction_type)).toEqual(['like']);
  });

  it('counts what remote actors add while the erasure runs, in its own transaction', async () => {
    const { db, dialect } = database();
    const users = new SqlUserRepository(db);
    const [leaving, author] = [(await users.create(aNewUser())).id, (await users.create(aNewUser())).id];
    const post = (
      await new SqlPostRepository(db).create({ user_id: author, content: 'p', media: [], media_type: null, tags: [], created_at: at })
    ).id;
    await new SqlPostEngagementRepository(db, dialect).react(post, leaving, 'like', at);
    const remote = new SqlRemoteInteractionRepository(db, dialect);
    const actors = Array.from({ length: 10 }, (_, i) => `https://remote.example/users/${i}`);

    await Promise.all([
      db.transaction().execute((trx) => new SqlContentAccountData(trx, FEDERATION_COUNTER_CONTRIBUTIONS).erase(leaving, erasedAt)),
      ...actors.map((a) => remote.react(post, a, `${a}#like`, 'like', at)),
    ]);

    const row = await db.selectFrom('posts').select('likes_count').where('id', '=', post).executeTakeFirstOrThrow();
    expect(Number(row.likes_count)).toBe(actors.length);
  });
});
