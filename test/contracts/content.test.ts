import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryNotificationInbox,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
  InMemoryStoryRepository,
  contentContract,
} from '@plaza/domain/content/testing';
import { InMemoryNotificationRepository } from '@plaza/domain/notifications/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository, SqlPostEngagementRepository, SqlPostRepository, SqlStoryRepository } from '@plaza/adapters-mysql/content';
import { SqlNotificationInbox, SqlNotificationRepository } from '@plaza/adapters-mysql/notifications';
import { SqlFollowRepository } from '@plaza/adapters-mysql/social';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

contentContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const notifications = new InMemoryNotificationRepository();
  return {
    users,
    follows,
    posts: new InMemoryPostRepository(store),
    engagement: new InMemoryPostEngagementRepository(store),
    comments: new InMemoryCommentRepository(store),
    stories: new InMemoryStoryRepository(store),
    notifications,
    inbox: new InMemoryNotificationInbox(notifications, store),
    reports: {
      open: async (postId: number) => void store.reported.add(postId),
      close: async (postId: number) => void store.reported.delete(postId),
    },
  };
});

contentContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  posts: new SqlPostRepository(database().db),
  engagement: new SqlPostEngagementRepository(database().db, database().dialect),
  comments: new SqlCommentRepository(database().db, database().dialect),
  stories: new SqlStoryRepository(database().db),
  notifications: new SqlNotificationRepository(database().db),
  inbox: new SqlNotificationInbox(database().db),
  reports: sqlReports(),
}));

/** Reports as the moderation context stores them, written directly: the content ports only read them. */
function sqlReports() {
  const { db } = database();
  return {
    async open(postId: number) {
      const post = await db.selectFrom('posts').select('user_id').where('id', '=', postId).executeTakeFirstOrThrow();
      await db
        .insertInto('reports')
        .values({
          reporter_id: post.user_id,
          post_id: postId,
          post_type: 'post',
          user_id: null,
          target_user_id: post.user_id,
          reason: 'other',
          description: '',
          post_content: '',
          status: 'pending',
          open_key: `post:${postId}`,
          created_at: '2026-02-01 00:00:00',
        })
        .execute();
    },
    async close(postId: number) {
      await db.updateTable('reports').set({ status: 'resolved', open_key: null }).where('post_id', '=', postId).execute();
    },
  };
}
