import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryUserSuggestions, userSuggestionsContract } from '@plaza/domain/discovery/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlUserSuggestions } from '@plaza/adapters-mysql/discovery';
import { SqlFollowRepository } from '@plaza/adapters-mysql/social';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

userSuggestionsContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  return { users, follows, suggestions: new InMemoryUserSuggestions(users, follows) };
});

userSuggestionsContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  suggestions: new SqlUserSuggestions(database().db, database().dialect),
}));
