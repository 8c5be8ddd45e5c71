import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { AccountDataPart, ExportRow } from '@plaza/domain/accounts';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { aNewPage } from '@plaza/domain/pages/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository, SqlContentAccountData, SqlPostEngagementRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlGroupAccountData, SqlGroupCommentRepository, SqlGroupPostRepository, SqlGroupRepository } from '@plaza/adapters-mysql/groups';
import { SqlPageAccountData, SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { TEST_DIALECT, type TestDatabase, useTestDatabase } from '../support/database.js';

/**
 * One suite for the wall's, the groups' and the pages' share of a leaving or exporting user's posts,
 * comments and reactions (adapters-mysql surface-rows.ts, docs/decisions/0093 and 0225): every
 * surface erases and recounts the same way, and differs only where its comments do (nested or flat,
 * counting their reactions or not).
 */

const at = '2026-03-01 00:00:00';
const erasedAt = '2026-03-02 00:00:00';

interface Counters {
  reactions: number;
  comments: number;
}

/** One surface's writes, through its own repositories, and reads of its rows. */
interface SurfaceWorld {
  part: AccountDataPart;
  /** The export section of the user's reactions to the surface's posts. */
  reactionsSection: string;
  /** Whether comments nest, so that an answered comment stays emptied. */
  nests: boolean;
  /** Whether the surface's comments count their reactions. */
  commentsCountReactions: boolean;
  post(userId: number): Promise<number>;
  comment(postId: number, userId: number, parentId?: number): Promise<number>;
  react(postId: number, userId: number): Promise<void>;
  reactToComment(commentId: number, userId: number): Promise<void>;
  counters(postId: number): Promise<Counters | undefined>;
  comments(postId: number): Promise<{ id: number; content: string; reactions_count?: number }[]>;
  commentReactions(commentIds: number[]): Promise<number>;
}

const database = useTestDatabase();

function untyped(db: TestDatabase['db']): Kysely<any> {
  return db as unknown as Kysely<any>;
}

async function commentReactionCount(db: TestDatabase['db'], type: string, ids: number[]) {
  if (ids.length === 0) return 0;
  const rows = await db
    .selectFrom('comment_reactions')
    .select('comment_id')
    .where('comment_type', '=', type)
    .where('comment_id', 'in', ids)
    .execute();
  return rows.length;
}

function reads(db: TestDatabase['db'], type: string, posts: string, comments: string, counts: [string, string]) {
  return {
    async counters(postId: number) {
      const row = await untyped(db).selectFrom(posts).select(counts).where('id', '=', postId).executeTakeFirst();
      return row && { reactions: Number(row[counts[0]]), comments: Number(row[counts[1]]) };
    },
    async comments(postId: number) {
      const rows = await untyped(db).selectFrom(comments).selectAll().where('post_id', '=', postId).orderBy('id').execute();
      return rows.map((r) => ({
        id: r.id,
        content: r.content,
        ...(r.reactions_count === undefined ? {} : { reactions_count: Number(r.reactions_count) }),
      }));
    },
    commentReactions: (ids: number[]) => commentReactionCount(db, type, ids),
  };
}

function wall(db: TestDatabase['db'], dialect: TestDatabase['dialect']): SurfaceWorld {
  const posts = new SqlPostRepository(db);
  const comments = new SqlCommentRepository(db, dialect);
  const engagement = new SqlPostEngagementRepository(db, dialect);
  return {
    part: new SqlContentAccountData(db),
    reactionsSection: 'reactions',
    nests: true,
    commentsCountReactions: true,
    post: async (userId) =>
      (await posts.create({ user_id: userId, content: 'p', media: [], media_type: null, tags: [], created_at: at })).id,
    comment: async (postId, userId, parentId) =>
      (await comments.create({ post_id: postId, user_id: userId, parent_id: parentId ?? null, content: 'c', created_at: at })).id,
    react: async (postId, userId) => void (await engagement.react(postId, userId, 'like', at)),
    reactToComment: async (commentId, userId) => void (await comments.react('post', commentId, userId, 'like', at)),
    ...reads(db, 'post', 'posts', 'comments', ['likes_count', 'comments_count']),
  };
}

async function groups(db: TestDatabase['db'], dialect: TestDatabase['dialect'], creatorId: number): Promise<SurfaceWorld> {
  const group = await new SqlGroupRepository(db, dialect).create({
    name: 'G',
    description: '',
    avatar: null,
    cover_image: null,
    privacy: 'public',
    creator_id: creatorId,
    created_at: at,
  });
  const posts = new SqlGroupPostRepository(db, dialect);
  const comments = new SqlGroupCommentRepository(db, dialect);
  const commentReactions = new SqlCommentRepository(db, dialect);
  return {
    part: new SqlGroupAccountData(db),
    reactionsSection: 'group_post_reactions',
    nests: true,
    commentsCountReactions: false,
    post: async (userId) =>
      (await posts.create({ group_id: group.id, user_id: userId, content: 'p', media: [], media_type: null, tags: [], created_at: at })).id,
    comment: async (postId, userId, parentId) =>
      (
        await comments.create({
          post_id: postId,
          group_id: group.id,
          user_id: userId,
          parent_id: parentId ?? null,
          content: 'c',
          created_at: at,
        })
      ).id,
    react: async (postId, userId) => void (await posts.react(postId, userId, 'like', at)),
    reactToComment: async (commentId, userId) => void (await commentReactions.react('group', commentId, userId, 'like', at)),
    ...reads(db, 'group', 'group_posts', 'group_comments', ['likes_count', 'comments_count']),
  };
}

async function pages(db: TestDatabase['db'], dialect: TestDatabase['dialect'], creatorId: number): Promise<SurfaceWorld> {
  const page = await new SqlPageRepository(db, dialect).create({ ...aNewPage(), created_by: creatorId, created_at: at });
  const posts = new SqlPagePostRepository(db, dialect);
  const commentReactions = new SqlCommentRepository(db, dialect);
  return {
    part: new SqlPageAccountData(db),
    reactionsSection: 'page_reactions',
    nests: false,
    commentsCountReactions: true,
    post: async (userId) =>
      (await posts.create({ page_id: page.id, user_id: userId, content: 'p', media: null, media_type: null, created_at: at })).id,
    comment: async (postId, userId) => (await posts.createComment({ post_id: postId, user_id: userId, content: 'c', created_at: at })).id,
    react: (postId, userId) => posts.setReaction(postId, userId, 'like', at),
    // As the pages' service does: the shared reaction row, then the page comment's own counter.
    reactToComment: async (commentId, userId) => {
      if ((await commentReactions.react('page', commentId, userId, 'like', at)) === 'added')
        await posts.adjustCommentReactions(commentId, 1);
    },
    ...reads(db, 'page', 'page_posts', 'page_comments', ['like_count', 'comment_count']),
  };
}

async function collect(rows: AsyncIterable<ExportRow>): Promise<ExportRow[]> {
  const out: ExportRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const surfaces: [string, (db: TestDatabase['db'], dialect: TestDatabase['dialect'], creatorId: number) => Promise<SurfaceWorld>][] = [
  ['the wall', async (db, dialect) => wall(db, dialect)],
  ['groups', groups],
  ['pages', pages],
];

describe.each(surfaces)(`a surface's account data: %s (${TEST_DIALECT})`, (_name, open) => {
  /** A leaving user, two others, and the surface (a place created by the first other where there are places). */
  async function world() {
    const { db, dialect } = database();
    const users = new SqlUserRepository(db);
    const [leaving, other, third] = [
      (await users.create(aNewUser())).id,
      (await users.create(aNewUser())).id,
      (await users.create(aNewUser())).id,
    ];
    return { surface: await open(db, dialect, other), leaving, other, third };
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
      { id: kept, content: 'c', ...(surface.commentsCountReactions ? { reactions_count: 1 } : {}) },
    ]);
    expect(await surface.commentReactions([mine])).toBe(0);
    expect(await surface.commentReactions([kept])).toBe(1);
  });

  it('keeps an answered comment emptied under the tombstone where comments nest', async ({ skip }) => {
    const { surface, leaving, other, third } = await world();
    if (!surface.nests) skip();
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

    expect(await collect(surface.part.rows(leaving, surface.reactionsSection))).toEqual([
      { post_id: first, reaction_type: 'like', created_at: expect.anything() },
      { post_id: second, reaction_type: 'like', created_at: expect.anything() },
    ]);
  });
});
