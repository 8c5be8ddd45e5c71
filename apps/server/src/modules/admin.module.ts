import { dirname, join } from 'node:path';
import { Clock, toTimestamp, token } from '@plaza/domain';
import { AccessTokenRepository, AuthChangePublisher, PasswordHasher, SecretTokens, UserRepository } from '@plaza/domain/accounts';
import {
  AdminAccountService,
  AdminRoleService,
  AdminRoster,
  AdminSessionStore,
  MediaServerSettingsService,
  MediaServerSettingsStore,
  PasswordConfirmation,
  TurnSettingsService,
  TurnSettingsStore,
} from '@plaza/domain/admin';
import { adminPanel } from '@plaza/adapters-http';
import { PhpMediaServerSettingsFile, PhpTurnSettingsFile } from '@plaza/adapters-integrations/config-files';
import { ADMIN_MIGRATIONS, SqlAdminRoster, SqlAdminSessionStore } from '@plaza/adapters-mysql/admin';
import { turnEnvironment } from '../public-settings.js';
import { z } from 'zod';
import { featureModule, many, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { AdminSections, ConfigToken, DatabaseToken, PagesToken } from '../wiring/tokens.js';
import { Accounts } from './accounts.module.js';

export const Admin = {
  PasswordConfirmation: token<PasswordConfirmation>('admin.PasswordConfirmation'),
  MediaServerSettings: token<MediaServerSettingsService>('admin.MediaServerSettingsService'),
  TurnSettings: token<TurnSettingsService>('admin.TurnSettingsService'),
  Roles: token<AdminRoleService>('admin.AdminRoleService'),
  Accounts: token<AdminAccountService>('admin.AdminAccountService'),
};

/**
 * What admin offers outside the container (docs/decisions/0130): `createPlaza().admin.roles`, the
 * panel's Administrators page (search, promote, withdraw), administrators alone, checked inside the
 * service (`assertAdmin`). Not offered: `AdminAccountService` (the panel's sign-in, sessions and API
 * tokens: it answers session token hashes and new tokens, secrets, and `listTokens`/`createToken` trust
 * the caller to be the session's own user); the media server and TURN settings (`effective()` takes no
 * actor and answers the relay secrets: it trusts its caller, the server); `PasswordConfirmation` (a step
 * of those). Suspensions, the users search, registrations and invitations are bound by moderation and
 * accounts, and domain blocks by federation (`createPlaza().federation.domains`).
 */
const face = {
  name: 'admin',
  library: {
    roles: useCases(Admin.Roles, {
      list: [ACTOR, arg('query', z.string().trim().max(255).nullable()), pageRequest],
      promote: [ACTOR, id('userId')],
      withdraw: [ACTOR, id('userId')],
    }),
  },
  ports: {
    // admin (the settings stores' adapters are files: test/contracts/admin.test.ts runs the suite on them)
    AdminSessionStore: { suites: ['admin/testing/admin.contract.ts'], via: 'sessions' },
    AdminRoster: { suites: ['admin/testing/admin.contract.ts'], via: 'roster' },
    MediaServerSettingsStore: { suites: ['admin/testing/admin.contract.ts'], via: 'media' },
    TurnSettingsStore: { suites: ['admin/testing/admin.contract.ts'], via: 'turn' },
  },
} as const;

/**
 * The admin panel (docs/decisions/0060): its browser sessions, the settings files it writes
 * (config/media_server.local.php and config/turn.local.php, which lives.php and settings.php read),
 * and the administrators' roster.
 */
export const adminModule = featureModule(face, (w) => {
  w.migrations(ADMIN_MIGRATIONS);
  w.bind(AdminSessionStore, [DatabaseToken], ({ db, dialect }) => new SqlAdminSessionStore(db, dialect));
  w.bind(AdminRoster, [DatabaseToken, AuthChangePublisher], ({ db, dialect }, sessions) => new SqlAdminRoster(db, dialect, sessions));
  w.bind(MediaServerSettingsStore, [ConfigToken], (config) => new PhpMediaServerSettingsFile(config.media.configFile));
  // Beside media_server.local.php, in API_CONFIG_DIR.
  w.bind(TurnSettingsStore, [ConfigToken], (config) => new PhpTurnSettingsFile(join(dirname(config.media.configFile), 'turn.local.php')));

  w.construct(Admin.PasswordConfirmation, PasswordConfirmation, [UserRepository, PasswordHasher]);
  w.bind(
    Admin.MediaServerSettings,
    { store: MediaServerSettingsStore, config: ConfigToken, password: Admin.PasswordConfirmation },
    ({ store, config, password }) =>
      new MediaServerSettingsService(
        store,
        { url: config.media.url, apiKey: config.media.apiKey, apiSecret: config.media.apiSecret },
        password,
      ),
  );
  w.bind(
    Admin.TurnSettings,
    { store: TurnSettingsStore, config: ConfigToken, password: Admin.PasswordConfirmation },
    ({ store, config, password }) => new TurnSettingsService(store, turnEnvironment(config), password),
  );
  w.construct(Admin.Roles, AdminRoleService, [AdminRoster]);
  w.bind(
    Admin.Accounts,
    {
      auth: Accounts.AuthService,
      tokens: AccessTokenRepository,
      users: UserRepository,
      secrets: SecretTokens,
      clock: Clock,
      config: ConfigToken,
    },
    ({ auth, tokens, users, secrets, clock, config }) =>
      new AdminAccountService(auth, tokens, users, secrets, clock, config.technicianUserIds),
  );

  w.bind(
    PagesToken,
    {
      accounts: Admin.Accounts,
      roles: Admin.Roles,
      media: Admin.MediaServerSettings,
      turn: Admin.TurnSettings,
      sessions: AdminSessionStore,
      clock: Clock,
      config: ConfigToken,
      sections: many(AdminSections),
    },
    ({ accounts, roles, media, turn, sessions, clock, config, sections }) =>
      adminPanel({ accounts, roles, media, turn, sessions, clock, instanceName: config.domain, sections }),
  );
  w.job(
    { name: 'purge-admin-sessions', everyMs: 30 * 60_000 },
    { sessions: AdminSessionStore, clock: Clock },
    ({ sessions, clock }) =>
      () =>
        sessions.deleteExpired(toTimestamp(clock.now())),
  );
});
