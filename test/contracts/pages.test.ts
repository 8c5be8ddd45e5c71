import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryPagePostRepository, InMemoryPageRepository, pagesContract } from '@plaza/domain/pages/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

pagesContract('in-memory', async () => {
  const posts = new InMemoryPagePostRepository();
  return {
    users: new InMemoryUserRepository(),
    pages: new InMemoryPageRepository(),
    posts,
    reactToComment: async (commentId, userId) => posts.addCommentReaction(commentId, userId, '2026-01-01 00:00:00'),
  };
});

pagesContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    pages: new SqlPageRepository(db, dialect),
    posts: new SqlPagePostRepository(db, dialect),
    reactToComment: async (commentId, userId) => {
      await db
        .insertInto('comment_reactions')
        .values({ comment_type: 'page', comment_id: commentId, user_id: userId, reaction_type: 'like', created_at: '2026-01-01 00:00:00' })
        .execute();
    },
  };
});
