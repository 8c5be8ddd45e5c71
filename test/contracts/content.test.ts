import {
  contentContract,
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryFollowRepository,
  InMemoryNotificationInbox,
  InMemoryNotificationRepository,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
  InMemoryStoryRepository,
  InMemoryUserRepository,
} from '@plaza/domain/testing';
import {
  SqlCommentRepository,
  SqlFollowRepository,
  SqlNotificationInbox,
  SqlNotificationRepository,
  SqlPostEngagementRepository,
  SqlPostRepository,
  SqlStoryRepository,
  SqlUserRepository,
} from '@plaza/adapters-mysql';
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
    inbox: new InMemoryNotificationInbox(notifications),
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
}));
