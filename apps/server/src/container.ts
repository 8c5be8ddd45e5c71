import 'reflect-metadata';
import {
  AccessTokenRepository,
  AuthService,
  Clock,
  FollowRepository,
  InMemoryRateLimitStore,
  Mailer,
  NotificationRepository,
  NotificationService,
  PasswordHasher,
  PasswordResetRepository,
  ProfileService,
  ProfileStatsReader,
  PushSender,
  RateLimiter,
  RateLimitStore,
  SecretTokens,
  SystemClock,
  TotpVerifier,
  UserRepository,
} from '@plaza/domain';
import type { HttpServices } from '@plaza/adapters-http';
import {
  BcryptPasswordHasher,
  FileMailer,
  LoggingPushSender,
  NodeCryptoSecretTokens,
  OtplibTotp,
  SmtpMailer,
} from '@plaza/adapters-integrations';
import {
  pingDatabase,
  SqlAccessTokenRepository,
  SqlFollowRepository,
  SqlNotificationRepository,
  SqlPasswordResetRepository,
  SqlProfileStatsReader,
  SqlRateLimitStore,
  SqlUserRepository,
  type DatabaseHandle,
} from '@plaza/adapters-mysql';
import { Container } from 'inversify';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { ConfiguredPublicSettings } from './public-settings.js';
import { TYPES } from './tokens.js';

/** Replacements for tests: a controllable clock, a recording mailer or push sender. */
export interface ContainerOverrides {
  clock?: Clock;
  mailer?: Mailer;
  push?: PushSender;
}

/**
 * The composition root: the only place that chooses an implementation for each port. Bindings use
 * toResolvedValue with explicit tokens, so neither the domain nor the adapters carry decorators.
 */
export function buildContainer(config: Config, handle: DatabaseHandle, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  const { db, dialect } = handle;

  c.bind(TYPES.Config).toConstantValue(config);
  c.bind(TYPES.Logger).toConstantValue(logger);
  c.bind(TYPES.Database).toConstantValue(handle);
  c.bind<Clock>(Clock).toConstantValue(overrides.clock ?? new SystemClock());

  // Driven adapters.
  c.bind<UserRepository>(UserRepository).toResolvedValue(() => new SqlUserRepository(db));
  c.bind<AccessTokenRepository>(AccessTokenRepository).toResolvedValue(() => new SqlAccessTokenRepository(db));
  c.bind<PasswordResetRepository>(PasswordResetRepository).toResolvedValue(() => new SqlPasswordResetRepository(db));
  c.bind<ProfileStatsReader>(ProfileStatsReader).toResolvedValue(() => new SqlProfileStatsReader(db));
  c.bind<FollowRepository>(FollowRepository).toResolvedValue(() => new SqlFollowRepository(db));
  c.bind<NotificationRepository>(NotificationRepository).toResolvedValue(() => new SqlNotificationRepository(db));
  c.bind<RateLimitStore>(RateLimitStore).toResolvedValue(() =>
    config.rateLimitStore === 'database' ? new SqlRateLimitStore(db, dialect) : new InMemoryRateLimitStore(),
  );
  c.bind<PasswordHasher>(PasswordHasher).toResolvedValue(() => new BcryptPasswordHasher(config.bcryptCost));
  c.bind<SecretTokens>(SecretTokens).toResolvedValue(() => new NodeCryptoSecretTokens());
  c.bind<OtplibTotp>(TYPES.Totp).toResolvedValue(() => new OtplibTotp());
  c.bind<TotpVerifier>(TotpVerifier).toService(TYPES.Totp);
  c.bind<Mailer>(Mailer).toResolvedValue(
    () =>
      overrides.mailer ??
      (config.smtpUrl
        ? new SmtpMailer(config.smtpUrl, config.mailFrom)
        : new FileMailer(join(config.dataDir, 'mail'), config.mailFrom, logger)),
  );
  c.bind<PushSender>(PushSender).toResolvedValue(() => overrides.push ?? new LoggingPushSender(logger));

  // Application services.
  c.bind(TYPES.AuthService).toResolvedValue(
    (
      users: UserRepository,
      tokens: AccessTokenRepository,
      resets: PasswordResetRepository,
      hasher: PasswordHasher,
      totp: TotpVerifier,
      secrets: SecretTokens,
      mailer: Mailer,
      clock: Clock,
    ) =>
      new AuthService(users, tokens, resets, hasher, totp, secrets, mailer, clock, {
        tokenTtlDays: config.tokenTtlDays,
        resetTtlMinutes: config.resetTtlMinutes,
        instanceName: config.domain,
      }),
    [UserRepository, AccessTokenRepository, PasswordResetRepository, PasswordHasher, TotpVerifier, SecretTokens, Mailer, Clock],
  );
  c.bind(TYPES.ProfileService).toResolvedValue((users: UserRepository, stats: ProfileStatsReader) => new ProfileService(users, stats), [UserRepository, ProfileStatsReader]);
  c.bind(TYPES.NotificationService).toResolvedValue(
    (repo: NotificationRepository, push: PushSender, clock: Clock) => new NotificationService(repo, push, clock),
    [NotificationRepository, PushSender, Clock],
  );
  c.bind(TYPES.RateLimiter).toResolvedValue((store: RateLimitStore, clock: Clock) => new RateLimiter(store, config.rateLimits, clock), [RateLimitStore, Clock]);
  c.bind(TYPES.PublicSettings).toResolvedValue((clock: Clock) => new ConfiguredPublicSettings(config, clock), [Clock]);
  c.bind(TYPES.Health).toResolvedValue(
    (clock: Clock) => ({
      async check() {
        const reachable = await pingDatabase(db);
        return {
          status: reachable ? ('ok' as const) : ('degraded' as const),
          timestamp: clock.now().toISOString().slice(0, 19).replace('T', ' '),
          database: { reachable, dialect },
        };
      },
    }),
    [Clock],
  );
  return c;
}

/** What the HTTP adapter needs, resolved from the container. */
export function httpServices(c: Container, config: Config): HttpServices {
  return {
    auth: c.get(TYPES.AuthService),
    profiles: c.get(TYPES.ProfileService),
    settings: c.get(TYPES.PublicSettings),
    federation: { publicUrl: config.publicUrl, domain: config.domain },
    health: c.get(TYPES.Health),
  };
}
