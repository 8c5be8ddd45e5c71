import { Clock, token, UnitOfWork } from '@plaza/domain';
import { AccessTokenRepository, AccountEraser, ProfileStatsReader, RecoveryCodeRepository, UserRepository } from '@plaza/domain/accounts';
import { AuthChangePublisher } from '@plaza/domain/accounts';
import { AdminRoster } from '@plaza/domain/admin';
import {
  AccountModerationService,
  CandidacyRepository,
  ElectionService,
  FeatureSuggestionRepository,
  FeatureSuggestionService,
  ModerationLog,
  ModeratorRoster,
  ReportableContents,
  ReportableWallPosts,
  ReportRepository,
  ReportService,
  SanctionRepository,
  SanctionService,
  SuspensionRepository,
} from '@plaza/domain/moderation';
import { reportsSection, usersSection, zId } from '@plaza/adapters-http';
import {
  featureSuggestionsScript,
  listQuery as suggestionListQuery,
  statusBody,
  suggestionBody,
  suggestionCommentBody,
  suggestionVoteBody,
} from '@plaza/adapters-http/scripts/feature-suggestions';
import { moderatorsScript, applyBody, voteBody } from '@plaza/adapters-http/scripts/moderators';
import { reportsScript, cancelBody, listQuery as reportListQuery, postBody as reportBody } from '@plaza/adapters-http/scripts/reports';
import { sanctionsScript } from '@plaza/adapters-http/scripts/sanctions';
import {
  MODERATION_MIGRATIONS,
  SqlCandidacyRepository,
  SqlFeatureSuggestionRepository,
  SqlModerationAccountData,
  SqlModerationLog,
  SqlModeratorRoster,
  SqlReportRepository,
  SqlSanctionRepository,
  SqlSuspensionRepository,
} from '@plaza/adapters-mysql/moderation';
import { featureModule, useCases, many } from '../wiring/feature-module.js';
import { AdminSections, ConfigToken, DatabaseToken } from '../wiring/tokens.js';
import { Accounts } from './accounts.module.js';
import { Content } from './content.module.js';
import { Notifications } from './notifications.module.js';
import { Platform } from './platform.module.js';
import { z } from 'zod';
import { ACTOR, arg, id, optionalPage, pageRequest } from '../library-input.js';

export const Moderation = {
  SanctionService: token<SanctionService>('moderation.SanctionService'),
  ReportService: token<ReportService>('moderation.ReportService'),
  ElectionService: token<ElectionService>('moderation.ElectionService'),
  FeatureSuggestionService: token<FeatureSuggestionService>('moderation.FeatureSuggestionService'),
  AccountModerationService: token<AccountModerationService>('moderation.AccountModerationService'),
};

/** Issuing a warning is the server's own step: checked for the shape the service reads. */
const warning = z.object({ userId: zId, issuedBy: zId, reportId: zId.nullable(), reason: z.string().max(1000) });

/**
 * What moderation offers outside the container (docs/decisions/0130): `createPlaza().moderation`,
 * reports, elections, sanctions and suggestions, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'moderation',
  library: {
    reports: useCases(Moderation.ReportService, {
      create: [ACTOR, arg('input', reportBody.pick({ post_id: true, post_type: true, user_id: true, reason: true, description: true }))],
      list: [ACTOR, arg('status', reportListQuery.shape.status.unwrap().exclude([''])), pageRequest],
      queue: [ACTOR, arg('status', reportListQuery.shape.status.unwrap().exclude([''])), pageRequest],
      aboutUser: [ACTOR, id('userId'), pageRequest],
      vote: [ACTOR, id('reportId'), arg('vote', reportBody.shape.vote.unwrap())],
      act: [ACTOR, id('reportId'), arg('action', reportBody.shape.moderator_action.unwrap()), arg('reason', reportBody.shape.reason)],
      cancel: [ACTOR, { ...arg('which', cancelBody), parsed: false }],
    }),
    elections: useCases(Moderation.ElectionService, {
      apply: [ACTOR, arg('motivation', applyBody.shape.motivation)],
      withdraw: [ACTOR],
      vote: [ACTOR, id('candidateId'), arg('vote', voteBody.shape.vote)],
      candidates: [ACTOR, pageRequest],
      moderators: [ACTOR, pageRequest],
      actions: [ACTOR, pageRequest],
    }),
    sanctions: useCases(Moderation.SanctionService, {
      admit: [ACTOR],
      assertNotBanned: [ACTOR],
      mine: [ACTOR, optionalPage],
      all: [ACTOR, pageRequest],
      issueWarning: [arg('input', warning)],
    }),
    suggestions: useCases(Moderation.FeatureSuggestionService, {
      list: [ACTOR, arg('filter', suggestionListQuery.shape.filter.unwrap().exclude(['']).nullable()), pageRequest],
      detail: [ACTOR, id('id'), pageRequest],
      stats: [],
      create: [ACTOR, arg('input', suggestionBody)],
      vote: [ACTOR, id('id'), arg('vote', suggestionVoteBody.shape.vote)],
      comment: [ACTOR, id('id'), arg('content', suggestionCommentBody.shape.content)],
      updateStatus: [ACTOR, id('id'), arg('input', statusBody.omit({ suggestion_id: true }))],
      delete: [ACTOR, id('id')],
    }),
  },
  ports: {
    // moderation
    ReportRepository: { suites: ['moderation/testing/moderation.contract.ts'], via: 'reports' },
    SanctionRepository: { suites: ['moderation/testing/moderation.contract.ts'], via: 'sanctions' },
    SuspensionRepository: { suites: ['moderation/testing/moderation.contract.ts'], via: 'suspensions' },
    ModerationLog: { suites: ['moderation/testing/moderation.contract.ts'], via: 'log' },
    CandidacyRepository: { suites: ['moderation/testing/moderation.contract.ts'], via: 'candidacies' },
    ModeratorRoster: { suites: ['moderation/testing/moderation.contract.ts'], via: 'roster' },
    FeatureSuggestionRepository: { suites: ['moderation/testing/moderation.contract.ts'], via: 'suggestions' },
  },
} as const;

/** Reports, elected moderators, sanctions, the feature-suggestion board (docs/decisions/0012), and the admin panel's Users and Reports pages (0105). */
export const moderationModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlModerationAccountData(db));
  w.migrations(MODERATION_MIGRATIONS);
  w.bind(ReportRepository, [DatabaseToken], ({ db, dialect }) => new SqlReportRepository(db, dialect));
  // Bans and suspensions end the account's cached sessions (docs/decisions/0150).
  w.bind(
    SanctionRepository,
    [DatabaseToken, AuthChangePublisher],
    ({ db, dialect }, sessions) => new SqlSanctionRepository(db, dialect, sessions),
  );
  w.bind(SuspensionRepository, [DatabaseToken, AuthChangePublisher], ({ db }, sessions) => new SqlSuspensionRepository(db, sessions));
  w.bind(ModerationLog, [DatabaseToken], ({ db }) => new SqlModerationLog(db));
  w.bind(CandidacyRepository, [DatabaseToken], ({ db, dialect }) => new SqlCandidacyRepository(db, dialect));
  w.bind(ModeratorRoster, [DatabaseToken, AuthChangePublisher], ({ db }, sessions) => new SqlModeratorRoster(db, sessions));
  w.bind(FeatureSuggestionRepository, [DatabaseToken], ({ db, dialect }) => new SqlFeatureSuggestionRepository(db, dialect));

  // Wall posts; group and page posts are reportable from their own modules.
  w.construct(ReportableContents, ReportableWallPosts, [Content.PostService]);
  w.bind(
    Moderation.SanctionService,
    { sanctions: SanctionRepository, users: UserRepository, clock: Clock, config: ConfigToken, suspensions: SuspensionRepository },
    ({ sanctions, users, clock, config, suspensions }) => new SanctionService(sanctions, users, clock, config.moderation, suspensions),
  );
  w.bind(
    Moderation.ReportService,
    {
      reports: ReportRepository,
      sanctionRepo: SanctionRepository,
      sanctions: Moderation.SanctionService,
      log: ModerationLog,
      contents: many(ReportableContents),
      users: UserRepository,
      notifications: Notifications.NotificationService,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
    },
    ({ reports, sanctionRepo, sanctions, log, contents, users, notifications, clock, uow, config }) =>
      new ReportService(reports, sanctionRepo, sanctions, log, contents, users, notifications, clock, uow, config.moderation),
  );
  w.bind(
    Moderation.ElectionService,
    {
      candidacies: CandidacyRepository,
      roster: ModeratorRoster,
      log: ModerationLog,
      users: UserRepository,
      notifications: Notifications.NotificationService,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
    },
    ({ candidacies, roster, log, users, notifications, clock, uow, config }) =>
      new ElectionService(candidacies, roster, log, users, notifications, clock, uow, config.moderation),
  );
  w.construct(Moderation.FeatureSuggestionService, FeatureSuggestionService, [
    FeatureSuggestionRepository,
    UserRepository,
    Notifications.NotificationService,
    Clock,
    UnitOfWork,
  ]);

  // Instance moderation in the admin panel (docs/decisions/0105): the Users and Reports pages.
  w.bind(
    Moderation.AccountModerationService,
    {
      roster: AdminRoster,
      profiles: ProfileStatsReader,
      users: UserRepository,
      tokens: AccessTokenRepository,
      recovery: RecoveryCodeRepository,
      eraser: AccountEraser,
      mail: Accounts.MailDelivery,
      suspensions: SuspensionRepository,
      sanctions: SanctionRepository,
      log: ModerationLog,
      clock: Clock,
      uow: UnitOfWork,
      config: ConfigToken,
    },
    ({ roster, profiles, users, tokens, recovery, eraser, mail, suspensions, sanctions, log, clock, uow, config }) =>
      new AccountModerationService(roster, profiles, users, tokens, recovery, eraser, mail, suspensions, sanctions, log, clock, uow, {
        instanceName: config.domain,
      }),
  );
  w.bind(AdminSections, { accounts: Moderation.AccountModerationService, reports: Moderation.ReportService }, ({ accounts, reports }) =>
    usersSection(accounts, reports),
  );
  w.bind(AdminSections, { reports: Moderation.ReportService, elections: Moderation.ElectionService }, ({ reports, elections }) =>
    reportsSection(reports, elections),
  );

  w.script([Moderation.ReportService, Platform.Presenters], reportsScript);
  w.script([Moderation.ElectionService, Platform.Presenters], moderatorsScript);
  w.script([Moderation.SanctionService, Platform.Presenters], sanctionsScript);
  w.script([Moderation.FeatureSuggestionService, Platform.Presenters], featureSuggestionsScript);
});
