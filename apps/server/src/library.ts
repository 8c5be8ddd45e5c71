import type { Token } from '@plaza/domain';
import type {
  AccountDeletionService,
  AuthService,
  ExportService,
  PasswordService,
  PreferenceService,
  ProfileService,
  TwoFactorService,
} from '@plaza/domain/accounts';
import type { CallService, TalkInviteService } from '@plaza/domain/calls';
import type { CommentService, EngagementService, PostService, StoryService } from '@plaza/domain/content';
import type { LiveChatService, LiveModerationService, LiveService, LiveStageService } from '@plaza/domain/lives';
import type { MessageGroupService, PrivateMessageService, TypingService } from '@plaza/domain/messaging';
import type { ElectionService, FeatureSuggestionService, ReportService, SanctionService } from '@plaza/domain/moderation';
import type { NotificationInboxService, NotificationService } from '@plaza/domain/notifications';
import type { FollowService, FriendService } from '@plaza/domain/social';
import { createLogger } from '@plaza/adapters-http';
import { collectMigrations, migrateToLatest, openDatabase, type DatabaseHandle } from '@plaza/adapters-mysql';
import type { Logger } from 'pino';
import { loadConfig, type Config } from './config.js';
import { checkedInput, LIBRARY_INPUT_RULES as rules } from './library-input.js';
import { buildContainer, type ContainerOverrides } from './container.js';
import { Accounts } from './modules/accounts.module.js';
import { Calls } from './modules/calls.module.js';
import { Content } from './modules/content.module.js';
import { Lives } from './modules/lives.module.js';
import { Messaging } from './modules/messaging.module.js';
import { Moderation } from './modules/moderation.module.js';
import { Notifications } from './modules/notifications.module.js';
import { Social } from './modules/social.module.js';
import { resolve, resolveAll } from './wiring/feature-module.js';
import { Migrations } from './wiring/tokens.js';

export interface PlazaLibraryOptions extends ContainerOverrides {
  /** Configuration as environment variables (the README's table); `process.env` when omitted. */
  env?: Record<string, string | undefined>;
  /** Use this already-open database instead of the configured one; it stays open on close(). */
  database?: DatabaseHandle;
  /** Logs as JSON lines; warnings and errors only by default, a tool's output is its own. */
  logger?: Logger;
}

/**
 * Plaza's use cases for other Node tools: the same services the HTTP API calls, on the same
 * database (MySQL/MariaDB with `DB_HOST`, else SQLite under `API_DATA_DIR`), with the same rules.
 * Each method takes the acting user (`actorOf(user)` from `@plaza/domain/accounts`) and plain input.
 * No use case returns a secret: accounts are `UserRecord`s, without password hash or TOTP secret
 * (docs/decisions/0113); every use case checks its input with its HTTP operation's schema
 * (`LIBRARY_INPUT_RULES`, one rule per method or it does not compile) and refuses bad input with `Invalid`, as HTTP does.
 */
export interface Plaza {
  config: Config;
  accounts: {
    auth: AuthService;
    profiles: ProfileService;
    twoFactor: TwoFactorService;
    passwords: PasswordService;
    preferences: PreferenceService;
    deletion: AccountDeletionService;
    export: ExportService;
  };
  social: { follows: FollowService; friends: FriendService };
  content: { posts: PostService; engagement: EngagementService; comments: CommentService; stories: StoryService };
  messaging: { privateMessages: PrivateMessageService; groups: MessageGroupService; typing: TypingService };
  notifications: { notifications: NotificationService; inbox: NotificationInboxService };
  calls: { calls: CallService; talk: TalkInviteService };
  lives: { lives: LiveService; stage: LiveStageService; chat: LiveChatService; moderation: LiveModerationService };
  moderation: { reports: ReportService; elections: ElectionService; sanctions: SanctionService; suggestions: FeatureSuggestionService };
  /** Anything else the modules bind, by its token (ports included, e.g. `UserRepository`). */
  get<T>(token: Token<T>): T;
  /** Closes the database (unless it was handed in). */
  close(): Promise<void>;
}

/** Opens the database, brings its schema up to date and returns the typed use cases. */
export async function createPlaza(options: PlazaLibraryOptions = {}): Promise<Plaza> {
  const config = loadConfig(options.env ?? process.env);
  const logger = options.logger ?? createLogger({ level: 'warn' });
  const database = options.database ?? openDatabase(config.database);
  try {
    const container = buildContainer(config, database, logger, options);
    await migrateToLatest(database.db, database.dialect, collectMigrations(resolveAll(container, Migrations)));
    const get = <T>(token: Token<T>) => resolve(container, token);
    return {
      config,
      accounts: {
        auth: checkedInput(get(Accounts.AuthService), rules.accounts.auth),
        profiles: checkedInput(get(Accounts.ProfileService), rules.accounts.profiles),
        twoFactor: checkedInput(get(Accounts.TwoFactorService), rules.accounts.twoFactor),
        passwords: checkedInput(get(Accounts.PasswordService), rules.accounts.passwords),
        preferences: checkedInput(get(Accounts.PreferenceService), rules.accounts.preferences),
        deletion: checkedInput(get(Accounts.AccountDeletionService), rules.accounts.deletion),
        export: checkedInput(get(Accounts.ExportService), rules.accounts.export),
      },
      social: {
        follows: checkedInput(get(Social.FollowService), rules.social.follows),
        friends: checkedInput(get(Social.FriendService), rules.social.friends),
      },
      content: {
        posts: checkedInput(get(Content.PostService), rules.content.posts),
        engagement: checkedInput(get(Content.EngagementService), rules.content.engagement),
        comments: checkedInput(get(Content.CommentService), rules.content.comments),
        stories: checkedInput(get(Content.StoryService), rules.content.stories),
      },
      messaging: {
        privateMessages: checkedInput(get(Messaging.PrivateMessageService), rules.messaging.privateMessages),
        groups: checkedInput(get(Messaging.MessageGroupService), rules.messaging.groups),
        typing: checkedInput(get(Messaging.TypingService), rules.messaging.typing),
      },
      notifications: {
        notifications: checkedInput(get(Notifications.NotificationService), rules.notifications.notifications),
        inbox: checkedInput(get(Notifications.NotificationInboxService), rules.notifications.inbox),
      },
      calls: {
        calls: checkedInput(get(Calls.CallService), rules.calls.calls),
        talk: checkedInput(get(Calls.TalkInviteService), rules.calls.talk),
      },
      lives: {
        lives: checkedInput(get(Lives.LiveService), rules.lives.lives),
        stage: checkedInput(get(Lives.LiveStageService), rules.lives.stage),
        chat: checkedInput(get(Lives.LiveChatService), rules.lives.chat),
        moderation: checkedInput(get(Lives.LiveModerationService), rules.lives.moderation),
      },
      moderation: {
        reports: checkedInput(get(Moderation.ReportService), rules.moderation.reports),
        elections: checkedInput(get(Moderation.ElectionService), rules.moderation.elections),
        sanctions: checkedInput(get(Moderation.SanctionService), rules.moderation.sanctions),
        suggestions: checkedInput(get(Moderation.FeatureSuggestionService), rules.moderation.suggestions),
      },
      get,
      async close() {
        if (!options.database) await database.close();
      },
    };
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }
}
