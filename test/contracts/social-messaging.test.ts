import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  InMemoryMessageGroupRepository,
  InMemoryPrivateMessageRepository,
  InMemoryTypingRepository,
  socialMessagingContract,
} from '@plaza/domain/messaging/testing';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlMessageGroupRepository, SqlPrivateMessageRepository, SqlTypingRepository } from '@plaza/adapters-mysql/messaging';
import { SqlFollowRepository, SqlFriendRequestRepository } from '@plaza/adapters-mysql/social';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

socialMessagingContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return {
    users,
    follows: new InMemoryFollowRepository(),
    friends: new InMemoryFriendRequestRepository(),
    messages: new InMemoryPrivateMessageRepository(users),
    groups: new InMemoryMessageGroupRepository(),
    typing: new InMemoryTypingRepository(),
  };
});
socialMessagingContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  friends: new SqlFriendRequestRepository(database().db, database().dialect),
  messages: new SqlPrivateMessageRepository(database().db, database().dialect),
  groups: new SqlMessageGroupRepository(database().db, database().dialect),
  typing: new SqlTypingRepository(database().db, database().dialect),
}));
