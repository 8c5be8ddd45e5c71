import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  InMemoryCandidacyRepository,
  InMemoryFeatureSuggestionRepository,
  InMemoryModerationLog,
  InMemoryModeratorRoster,
  InMemoryReportRepository,
  InMemorySanctionRepository,
  InMemorySuspensionRepository,
  moderationContract,
} from '@plaza/domain/moderation/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import {
  SqlCandidacyRepository,
  SqlFeatureSuggestionRepository,
  SqlModerationLog,
  SqlModeratorRoster,
  SqlReportRepository,
  SqlSanctionRepository,
  SqlSuspensionRepository,
} from '@plaza/adapters-mysql/moderation';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

moderationContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return {
    users,
    reports: new InMemoryReportRepository(),
    sanctions: new InMemorySanctionRepository(),
    suspensions: new InMemorySuspensionRepository(),
    log: new InMemoryModerationLog(),
    candidacies: new InMemoryCandidacyRepository(),
    roster: new InMemoryModeratorRoster(users),
    suggestions: new InMemoryFeatureSuggestionRepository(),
  };
});

moderationContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    reports: new SqlReportRepository(db, dialect),
    sanctions: new SqlSanctionRepository(db, dialect),
    suspensions: new SqlSuspensionRepository(db),
    log: new SqlModerationLog(db),
    candidacies: new SqlCandidacyRepository(db, dialect),
    roster: new SqlModeratorRoster(db),
    suggestions: new SqlFeatureSuggestionRepository(db, dialect),
  };
});
