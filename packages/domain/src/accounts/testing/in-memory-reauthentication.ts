import { ManualClock, type Clock } from '../../shared/clock.js';
import { Reauthentication } from '../reauthentication.js';
import { SecondFactor } from '../two-factor.js';
import { InMemoryRecoveryCodeRepository } from './in-memory-account-settings.js';
import {
  FakeTotpVerifier,
  InMemoryAccessTokenRepository,
  InMemoryReauthenticationAttempts,
  type InMemoryUserRepository,
  PlainPasswordHasher,
  SequentialSecretTokens,
} from './in-memory-accounts.js';

/** Re-authentication over in-memory fakes, for the tests of the services that ask for it (passwords are `plain:`). */
export function reauthenticationOf(users: InMemoryUserRepository, clock: Clock = new ManualClock()): Reauthentication {
  const secrets = new SequentialSecretTokens();
  const second = new SecondFactor(users, new InMemoryRecoveryCodeRepository(), new FakeTotpVerifier(), secrets, clock);
  return new Reauthentication(
    new InMemoryAccessTokenRepository(users),
    new InMemoryReauthenticationAttempts(),
    new PlainPasswordHasher(),
    second,
    secrets,
    clock,
  );
}
