import {
  InMemoryFollowRepository,
  InMemoryFriendRequestRepository,
  InMemoryMessageGroupRepository,
  InMemoryPrivateMessageRepository,
  InMemoryTypingRepository,
  InMemoryUserRepository,
  socialMessagingContract,
} from '@plaza/domain/testing';
import {
  SqlFollowRepository,
  SqlFriendRequestRepository,
  SqlMessageGroupRepository,
  SqlPrivateMessageRepository,
  SqlTypingRepository,
  SqlUserRepository,
} from '@plaza/adapters-mysql';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

socialMessagingContract('in-memory', async () => ({
  users: new InMemoryUserRepository(),
  follows: new InMemoryFollowRepository(),
  friends: new InMemoryFriendRequestRepository(),
  messages: new InMemoryPrivateMessageRepository(),
  groups: new InMemoryMessageGroupRepository(),
  typing: new InMemoryTypingRepository(),
}));
socialMessagingContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  friends: new SqlFriendRequestRepository(database().db),
  messages: new SqlPrivateMessageRepository(database().db, database().dialect),
  groups: new SqlMessageGroupRepository(database().db),
  typing: new SqlTypingRepository(database().db),
}));
