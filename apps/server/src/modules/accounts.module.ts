import { Clock, token, UnitOfWork } from '@plaza/domain';
import {
  AccessTokenRepository,
  AuthService,
  Mailer,
  PasswordHasher,
  PasswordResetRepository,
  ProfileService,
  ProfileStatsReader,
  SecretTokens,
  TotpVerifier,
  UserRepository,
} from '@plaza/domain/accounts';
import { authScript } from '@plaza/adapters-http/scripts/auth';
import { usersScript } from '@plaza/adapters-http/scripts/users';
import { BcryptPasswordHasher, FileMailer, NodeCryptoSecretTokens, OtplibTotp, SmtpMailer } from '@plaza/adapters-integrations';
import {
  SqlAccessTokenRepository,
  SqlPasswordResetRepository,
  SqlProfileStatsReader,
  SqlUserRepository,
} from '@plaza/adapters-mysql/accounts';
import { join } from 'node:path';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken, LoggerToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';

export const Accounts = {
  AuthService: token<AuthService>('accounts.AuthService'),
  ProfileService: token<ProfileService>('accounts.ProfileService'),
};

/** Users, sessions and tokens, passwords and their reset, profiles. */
export const accountsModule = featureModule((w) => {
  w.bind(UserRepository, [DatabaseToken], ({ db }) => new SqlUserRepository(db));
  w.bind(AccessTokenRepository, [DatabaseToken], ({ db }) => new SqlAccessTokenRepository(db));
  w.bind(PasswordResetRepository, [DatabaseToken], ({ db }) => new SqlPasswordResetRepository(db));
  w.bind(ProfileStatsReader, [DatabaseToken], ({ db }) => new SqlProfileStatsReader(db));
  w.bind(PasswordHasher, [ConfigToken], (config) => new BcryptPasswordHasher(config.bcryptCost));
  w.bind(SecretTokens, [], () => new NodeCryptoSecretTokens());
  w.bind(TotpVerifier, [], () => new OtplibTotp());
  w.bind(Mailer, [ConfigToken, LoggerToken], (config, logger) =>
    config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new FileMailer(join(config.dataDir, 'mail'), config.mailFrom, logger),
  );

  w.bind(
    Accounts.AuthService,
    [UserRepository, AccessTokenRepository, PasswordResetRepository, PasswordHasher, TotpVerifier, SecretTokens, Mailer, Clock, ConfigToken, UnitOfWork],
    (users, tokens, resets, hasher, totp, secrets, mailer, clock, config, uow) =>
      new AuthService(
        users,
        tokens,
        resets,
        hasher,
        totp,
        secrets,
        mailer,
        clock,
        { tokenTtlDays: config.tokenTtlDays, resetTtlMinutes: config.resetTtlMinutes, instanceName: config.domain },
        uow,
      ),
  );
  w.bind(Accounts.ProfileService, [UserRepository, ProfileStatsReader], (users, stats) => new ProfileService(users, stats));

  w.script([Accounts.AuthService, Platform.Presenters], authScript);
  w.script([Accounts.ProfileService, ConfigToken, Platform.Presenters], (profiles, config, p) =>
    usersScript(profiles, { publicUrl: config.publicUrl, domain: config.domain }, p),
  );
});
