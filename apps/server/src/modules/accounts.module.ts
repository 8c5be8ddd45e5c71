import { Clock, token, UnitOfWork } from '@plaza/domain';
import { AuthChangePublisher, AuthInvalidation, SessionCache } from '@plaza/domain/accounts';
import { SqlAuthInvalidation } from '@plaza/adapters-mysql/accounts';
import { RedisAuthInvalidation } from '@plaza/adapters-integrations/redis';
import {
  AccessTokenRepository,
  AccountDataFromParts,
  AccountDataParts,
  AccountDataReader,
  ExportedPosts,
  AccountDeletionService,
  AccountEraser,
  AuthService,
  DeletionRequestRepository,
  ExportService,
  MailDeliveryLog,
  MailDeliveryService,
  MAIL_JOB,
  Mailer,
  MailOutboxLane,
  MailOutbox,
  NotificationPreferenceRepository,
  PasswordHasher,
  PasswordResetRepository,
  PasswordService,
  PreferenceService,
  ProfileService,
  ProfileEventListeners,
  ProfileStatsReader,
  Reauthentication,
  ReauthenticationAttempts,
  RecoveryCodeRepository,
  SecondFactor,
  SecretTokens,
  TotpVerifier,
  TwoFactorService,
  UserRepository,
  AccountAdmission,
  AccountHoldRepository,
  EmailConfirmationRepository,
  InvitationRepository,
  RegistrationAdminService,
  RegistrationService,
} from '@plaza/domain/accounts';
import { authScript, credentials, emailBody, registration, resetBody, tokenInBody } from '@plaza/adapters-http/scripts/auth';
import { changePasswordScript, changePasswordBody } from '@plaza/adapters-http/scripts/change-password';
import { deleteAccountScript, confirmQuery } from '@plaza/adapters-http/scripts/delete-account';
import { exportScript } from '@plaza/adapters-http/scripts/export';
import { twoFactorScript, enableBody, proofBody } from '@plaza/adapters-http/scripts/two-factor';
import { userPreferencesScript, canonical, patch as preferencesPatch } from '@plaza/adapters-http/scripts/user-preferences';
import { usersScript, profilePatch } from '@plaza/adapters-http/scripts/users';
import { BcryptPasswordHasher, FileMailer, NodeCryptoSecretTokens, OtplibTotp, SmtpMailer } from '@plaza/adapters-integrations';
import {
  ACCOUNTS_MIGRATIONS,
  SqlAccessTokenRepository,
  SqlAccountsAccountData,
  SqlAccountEraser,
  SqlDeletionRequestRepository,
  SqlMailOutbox,
  SqlNotificationPreferenceRepository,
  SqlPasswordResetRepository,
  SqlProfileStatsReader,
  SqlReauthenticationAttempts,
  SqlRecoveryCodeRepository,
  SqlUserRepository,
  SqlAccountHoldRepository,
  SqlEmailConfirmationRepository,
  SqlInvitationRepository,
  SqlRegistrationAccountData,
} from '@plaza/adapters-mysql/accounts';
import { join } from 'node:path';
import { ModerationLog } from '@plaza/domain/moderation';
import { registrationsSection, zId } from '@plaza/adapters-http';
import { featureModule, useCases, many } from '../wiring/feature-module.js';
import { AdminSections, ConfigToken, DatabaseToken, LoggerToken, RedisToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';
import { z } from 'zod';
import { ACTOR, arg, streams } from '../library-input.js';

export const Accounts = {
  AuthService: token<AuthService>('accounts.AuthService'),
  /** The sessions this process authenticated, and the publisher of their changes (docs/decisions/0150). */
  Sessions: token<SessionCache>('accounts.SessionCache'),
  ProfileService: token<ProfileService>('accounts.ProfileService'),
  MailDelivery: token<MailDeliveryService>('accounts.MailDeliveryService'),
  SecondFactor: token<SecondFactor>('accounts.SecondFactor'),
  Reauthentication: token<Reauthentication>('accounts.Reauthentication'),
  TwoFactorService: token<TwoFactorService>('accounts.TwoFactorService'),
  PasswordService: token<PasswordService>('accounts.PasswordService'),
  PreferenceService: token<PreferenceService>('accounts.PreferenceService'),
  AccountDeletionService: token<AccountDeletionService>('accounts.AccountDeletionService'),
  ExportService: token<ExportService>('accounts.ExportService'),
  /** Registration under the operator's control (docs/decisions/0104). */
  Admission: token<AccountAdmission>('accounts.AccountAdmission'),
  Registration: token<RegistrationService>('accounts.RegistrationService'),
  RegistrationAdmin: token<RegistrationAdminService>('accounts.RegistrationAdminService'),
};

/** `auth.login` takes the login form's fields under the service's name `login` (HTTP: `username`). */
const login = credentials.omit({ username: true }).extend({ login: credentials.shape.username });
const proof = proofBody.extend({ session: z.string().max(512).nullish() });
const bearer = arg('token', tokenInBody.shape.token.unwrap().min(1, 'is required'));
/**
 * Use cases no HTTP operation calls directly (the server's own steps, public on their service):
 * checked for the shape the service reads, since there is no operation's schema to share.
 */
const accountRecord = z.looseObject({ id: z.number().int().positive(), username: z.string() });
const tokenAuthentication = z
  .object({ at: z.string().min(1), factors: z.enum(['password', 'second_factor']) })
  .nullable()
  .optional();

/**
 * What accounts offers outside the container (docs/decisions/0130): `createPlaza().accounts`,
 * accounts, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'accounts',
  library: {
    auth: useCases(Accounts.AuthService, {
      register: [arg('input', registration)],
      prepareRegistration: [arg('input', registration)],
      login: [arg('input', login)],
      authenticate: [bearer],
      session: [bearer],
      refresh: [bearer],
      revoke: [bearer],
      forgotPassword: [arg('email', emailBody.shape.email)],
      resetPassword: [arg('input', resetBody)],
      issue: [arg('user', accountRecord), arg('authentication', tokenAuthentication)],
    }),
    profiles: useCases(Accounts.ProfileService, {
      update: [ACTOR, arg('patch', profilePatch), arg('proof', proof.optional())],
      view: [ACTOR, arg('userId', zId.optional())],
    }),
    twoFactor: useCases(Accounts.TwoFactorService, {
      status: [ACTOR],
      enable: [ACTOR, arg('code', enableBody.shape.code)],
      disable: [ACTOR, arg('proof', proof)],
      regenerateRecoveryCodes: [ACTOR, arg('proof', proof)],
    }),
    passwords: useCases(Accounts.PasswordService, {
      change: [ACTOR, arg('input', changePasswordBody), arg('presentedToken', z.string().min(1).max(512))],
    }),
    preferences: useCases(Accounts.PreferenceService, {
      view: [ACTOR],
      update: [ACTOR, arg('patch', preferencesPatch.transform(canonical))],
    }),
    deletion: useCases(Accounts.AccountDeletionService, {
      request: [ACTOR, arg('password', z.string().min(1, 'is required').max(200))],
      confirm: [arg('secret', confirmQuery.shape.token)],
    }),
    export: useCases(Accounts.ExportService, { account: [ACTOR], json: [ACTOR], media: streams([ACTOR]), posts: streams([ACTOR]) }),
  },
  ports: {
    // accounts
    UserRepository: { suites: ['accounts/testing/accounts.contract.ts'], via: 'users' },
    AccessTokenRepository: { suites: ['accounts/testing/accounts.contract.ts'], via: 'tokens' },
    PasswordResetRepository: { suites: ['accounts/testing/accounts.contract.ts'], via: 'resets' },
    ProfileStatsReader: { suites: ['accounts/testing/profile-stats.contract.ts'], via: 'stats' },
    PasswordHasher: 'no SQL adapter',
    TotpVerifier: 'no SQL adapter',
    SecretTokens: 'no SQL adapter',
    Mailer: 'no SQL adapter',
    RecoveryCodeRepository: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'recovery' },
    ReauthenticationAttempts: { suites: ['accounts/testing/reauthentication.contract.ts'], via: 'attempts' },
    MailOutbox: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'outbox' },
    MailDeliveryLog: 'no SQL adapter',
    NotificationPreferenceRepository: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'preferences' },
    DeletionRequestRepository: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'deletions' },
    AccountHoldRepository: { suites: ['accounts/testing/registration.contract.ts'], via: 'holds' },
    InvitationRepository: { suites: ['accounts/testing/registration.contract.ts'], via: 'invitations' },
    EmailConfirmationRepository: { suites: ['accounts/testing/registration.contract.ts'], via: 'confirmations' },
    AuthInvalidation: { suites: ['accounts/testing/auth-invalidation.contract.ts'], via: 'signal' },
    // export and erasure span every context's tables: their suite runs on SQL (test/contracts/accounts.test.ts)
    AccountEraser: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'eraser' },
    AccountDataReader: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'reader' },
  },
} as const;

/**
 * Users, sessions and tokens, passwords (reset, change), two-factor, profiles, preferences, account
 * deletion, data export, and the mail outbox with its delivery job.
 */
export const accountsModule = featureModule(face, (w) => {
  w.migrations(ACCOUNTS_MIGRATIONS);
  // Authentication without a statement: each process keeps its sessions, the signal ends them (docs/decisions/0150).
  // On a Redis stream when REDIS_URL is set (docs/decisions/0160), else the auth_versions table.
  w.bind(AuthInvalidation, [DatabaseToken, RedisToken], ({ db, dialect }, redis) =>
    redis ? new RedisAuthInvalidation(redis.commands, redis.prefix) : new SqlAuthInvalidation(db, dialect),
  );
  w.construct(Accounts.Sessions, SessionCache, [AuthInvalidation, UnitOfWork]);
  w.bind(AuthChangePublisher, [Accounts.Sessions], (sessions) => sessions);
  w.bind(UserRepository, [DatabaseToken, AuthChangePublisher], ({ db }, sessions) => new SqlUserRepository(db, sessions));
  w.bind(AccessTokenRepository, [DatabaseToken, AuthChangePublisher], ({ db }, sessions) => new SqlAccessTokenRepository(db, sessions));
  w.bind(PasswordResetRepository, [DatabaseToken], ({ db }) => new SqlPasswordResetRepository(db));
  w.bind(ProfileStatsReader, [DatabaseToken], ({ db }) => new SqlProfileStatsReader(db));
  w.bind(PasswordHasher, [ConfigToken], (config) => new BcryptPasswordHasher(config.bcryptCost));
  w.construct(SecretTokens, NodeCryptoSecretTokens, []);
  w.construct(TotpVerifier, OtplibTotp, []);
  w.bind(Mailer, { config: ConfigToken, logger: LoggerToken }, ({ config, logger }) =>
    config.smtpUrl
      ? new SmtpMailer(config.smtpUrl, config.mailFrom)
      : new FileMailer(join(config.dataDir, 'mail'), config.mailFrom, logger),
  );

  w.bind(RecoveryCodeRepository, [DatabaseToken], ({ db }) => new SqlRecoveryCodeRepository(db));
  w.bind(ReauthenticationAttempts, [DatabaseToken], ({ db }) => new SqlReauthenticationAttempts(db));
  w.bind(MailOutbox, [DatabaseToken], ({ db }) => new SqlMailOutbox(db));
  w.bind(NotificationPreferenceRepository, [DatabaseToken], ({ db, dialect }) => new SqlNotificationPreferenceRepository(db, dialect));
  w.bind(DeletionRequestRepository, [DatabaseToken], ({ db }) => new SqlDeletionRequestRepository(db));
  w.accountData([DatabaseToken], ({ db }) => new SqlAccountsAccountData(db));
  w.bind(
    AccountEraser,
    [DatabaseToken, many(AccountDataParts), AuthChangePublisher],
    ({ db, dialect }, parts, sessions) => new SqlAccountEraser(db, dialect, parts, sessions),
  );
  w.construct(AccountDataReader, AccountDataFromParts, [many(AccountDataParts), ExportedPosts]);
  w.bind(MailDeliveryLog, [LoggerToken], (logger) => ({
    // The recipient and subject are logged, never the body: it may hold a reset code or link.
    sent: (entry) => logger.info({ mail_id: entry.id, to: entry.message.to, subject: entry.message.subject }, 'mail sent'),
    failed: (entry, error, retryAt) =>
      logger.warn(
        { mail_id: entry.id, to: entry.message.to, attempts: entry.attempts + 1, retry_at: retryAt, error },
        retryAt ? 'mail delivery failed, will retry' : 'mail delivery failed, giving up',
      ),
  }));
  // With BullMQ relaying (REDIS_URL), a committed mail is handed to the relay instead of sent from the request's process.
  w.construct(Accounts.MailDelivery, MailDeliveryService, [MailOutbox, Mailer, Clock, MailDeliveryLog, Platform.OutboxSignal]);
  w.construct(Accounts.SecondFactor, SecondFactor, [UserRepository, RecoveryCodeRepository, TotpVerifier, SecretTokens, Clock]);
  w.construct(Accounts.Reauthentication, Reauthentication, [
    AccessTokenRepository,
    ReauthenticationAttempts,
    PasswordHasher,
    Accounts.SecondFactor,
    SecretTokens,
    Clock,
  ]);

  w.bind(
    Accounts.AuthService,
    {
      users: UserRepository,
      tokens: AccessTokenRepository,
      resets: PasswordResetRepository,
      hasher: PasswordHasher,
      secondFactor: Accounts.SecondFactor,
      secrets: SecretTokens,
      mail: Accounts.MailDelivery,
      clock: Clock,
      config: ConfigToken,
      uow: UnitOfWork,
      admission: Accounts.Admission,
      sessions: Accounts.Sessions,
    },
    ({ users, tokens, resets, hasher, secondFactor, secrets, mail, clock, config, uow, admission, sessions }) =>
      new AuthService(
        users,
        tokens,
        resets,
        hasher,
        secondFactor,
        secrets,
        mail,
        clock,
        {
          tokenTtlDays: config.tokenTtlDays,
          resetTtlMinutes: config.resetTtlMinutes,
          instanceName: config.domain,
          technicianUserIds: config.technicianUserIds,
        },
        uow,
        admission,
        sessions,
      ),
  );
  // Every module's profile listeners (federation's Update(Person)).
  w.construct(Accounts.ProfileService, ProfileService, [
    UserRepository,
    ProfileStatsReader,
    Media.References,
    Accounts.Reauthentication,
    many(ProfileEventListeners),
  ]);

  w.bind(
    Accounts.TwoFactorService,
    {
      users: UserRepository,
      recovery: RecoveryCodeRepository,
      totp: TotpVerifier,
      secrets: SecretTokens,
      mail: Accounts.MailDelivery,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
      reauthentication: Accounts.Reauthentication,
    },
    ({ users, recovery, totp, secrets, mail, clock, uow, config, reauthentication }) =>
      new TwoFactorService(users, recovery, totp, secrets, mail, clock, uow, { issuer: config.domain }, reauthentication),
  );
  w.construct(Accounts.PasswordService, PasswordService, [
    UserRepository,
    AccessTokenRepository,
    PasswordHasher,
    SecretTokens,
    Clock,
    UnitOfWork,
  ]);
  // Federation's Update(Person) when the account turns private or public (docs/decisions/0050).
  w.construct(Accounts.PreferenceService, PreferenceService, [
    UserRepository,
    NotificationPreferenceRepository,
    Clock,
    UnitOfWork,
    many(ProfileEventListeners),
  ]);
  w.bind(
    Accounts.AccountDeletionService,
    {
      users: UserRepository,
      requests: DeletionRequestRepository,
      eraser: AccountEraser,
      hasher: PasswordHasher,
      secrets: SecretTokens,
      mail: Accounts.MailDelivery,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
    },
    ({ users, requests, eraser, hasher, secrets, mail, clock, uow, config }) =>
      new AccountDeletionService(users, requests, eraser, hasher, secrets, mail, clock, uow, {
        instanceName: config.domain,
        confirmUrl: (secret) => `${config.publicUrl}/api/v1/delete_account.php?token=${encodeURIComponent(secret)}`,
      }),
  );
  w.construct(Accounts.ExportService, ExportService, [UserRepository, AccountDataReader, Accounts.PreferenceService, Clock]);

  // Registration under the operator's control (docs/decisions/0104): holds, invitations, confirmation links, the panel's sign-ups.
  w.bind(AccountHoldRepository, [DatabaseToken], ({ db }) => new SqlAccountHoldRepository(db));
  w.bind(InvitationRepository, [DatabaseToken], ({ db }) => new SqlInvitationRepository(db));
  w.bind(EmailConfirmationRepository, [DatabaseToken], ({ db }) => new SqlEmailConfirmationRepository(db));
  w.accountData([DatabaseToken], ({ db }) => new SqlRegistrationAccountData(db));
  w.bind(
    Accounts.Admission,
    { holds: AccountHoldRepository, config: ConfigToken },
    ({ holds, config }) => new AccountAdmission(holds, config.registration),
  );
  w.bind(
    Accounts.Registration,
    {
      auth: Accounts.AuthService,
      users: UserRepository,
      holds: AccountHoldRepository,
      invitations: InvitationRepository,
      confirmations: EmailConfirmationRepository,
      secrets: SecretTokens,
      mail: Accounts.MailDelivery,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
    },
    ({ auth, users, holds, invitations, confirmations, secrets, mail, clock, uow, config }) =>
      new RegistrationService(auth, users, holds, invitations, confirmations, secrets, mail, clock, uow, {
        policy: config.registration,
        instanceName: config.domain,
        confirmUrl: (secret) => `${config.publicUrl}/api/v1/auth.php?action=confirm_email&token=${encodeURIComponent(secret)}`,
      }),
  );
  w.bind(
    Accounts.RegistrationAdmin,
    {
      users: UserRepository,
      holds: AccountHoldRepository,
      invitations: InvitationRepository,
      eraser: AccountEraser,
      secrets: SecretTokens,
      mail: Accounts.MailDelivery,
      clock: Clock,
      uow: UnitOfWork,
      log: ModerationLog,
      config: ConfigToken,
    },
    ({ users, holds, invitations, eraser, secrets, mail, clock, uow, log, config }) =>
      new RegistrationAdminService(
        users,
        holds,
        invitations,
        eraser,
        secrets,
        mail,
        clock,
        uow,
        // The moderators' action log (moderators.php?type=actions): one line per decision.
        { record: async (entry) => void (await log.record({ ...entry, report_id: null, post_id: null, by_vote: false })) },
        { instanceName: config.domain },
      ),
  );
  w.bind(AdminSections, { service: Accounts.RegistrationAdmin, config: ConfigToken, clock: Clock }, ({ service, config, clock }) =>
    registrationsSection(service, config.registration, clock),
  );

  w.script([Accounts.AuthService, Accounts.Registration, Platform.Presenters], authScript);
  w.script([Accounts.TwoFactorService], twoFactorScript);
  w.script([Accounts.PasswordService], changePasswordScript);
  w.script([Accounts.PreferenceService], userPreferencesScript);
  w.script([Accounts.AccountDeletionService, Platform.Presenters], deleteAccountScript);
  w.script({ exports: Accounts.ExportService, config: ConfigToken }, ({ exports, config }) =>
    exportScript(exports, { publicUrl: config.publicUrl, uploadsPath: config.uploadsPath }),
  );
  // Mail the request could not deliver at once (SMTP down, refused): retried with backoff (docs/decisions/0091).
  // Timers send what is due every 30 s; BullMQ gets each committed mail relayed as one job (docs/decisions/0215).
  w.outboxJob(
    { name: MAIL_JOB, everyMs: 30_000 },
    [Accounts.MailDelivery, MailOutbox, Mailer, Clock, MailDeliveryLog],
    (delivery, outbox, mailer, clock, log) => ({
      run: () => delivery.deliverDue(),
      outbox: new MailOutboxLane(outbox, mailer, clock, log),
    }),
  );
  w.script({ profiles: Accounts.ProfileService, config: ConfigToken, p: Platform.Presenters }, ({ profiles, config, p }) =>
    usersScript(profiles, { publicUrl: config.publicUrl, domain: config.domain }, p),
  );
});
