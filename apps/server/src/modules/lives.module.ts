import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CallRepository } from '@plaza/domain/calls';
import {
  LiveChatService,
  LiveModerationService,
  LiveRepository,
  LiveService,
  LiveStageService,
  MediaEventsService,
  MediaServer,
  MediaTokenService,
} from '@plaza/domain/lives';
import { MessageGroupRepository } from '@plaza/domain/messaging';
import {
  livesScript,
  backgroundBody,
  guestQuery,
  guestRequestBody,
  liveCommentBody,
  liveReportBody,
  startBody,
} from '@plaza/adapters-http/scripts/lives';
import { LiveKitMediaServer } from '@plaza/adapters-integrations/livekit';
import { effectiveMediaServer, MediaServerSettingsStore } from '@plaza/domain/admin';
import { LIVES_MIGRATIONS, SqlLiveRepository, SqlLivesAccountData } from '@plaza/adapters-mysql/lives';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';

export const Lives = {
  LiveService: token<LiveService>('lives.LiveService'),
  LiveStageService: token<LiveStageService>('lives.LiveStageService'),
  MediaTokenService: token<MediaTokenService>('lives.MediaTokenService'),
  MediaEventsService: token<MediaEventsService>('lives.MediaEventsService'),
  LiveChatService: token<LiveChatService>('lives.LiveChatService'),
  LiveModerationService: token<LiveModerationService>('lives.LiveModerationService'),
};

const liveGuest = [ACTOR, id('liveId'), id('userId')];

/**
 * What lives offers outside the container (docs/decisions/0130): `createPlaza().lives`,
 * lives, their stage, chat and moderation, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'lives',
  library: {
    lives: useCases(Lives.LiveService, {
      start: [ACTOR, arg('input', startBody)],
      list: [ACTOR, pageRequest],
      details: [ACTOR, id('liveId')],
      end: [ACTOR, id('liveId')],
      join: [ACTOR, id('liveId')],
      setBackground: [ACTOR, id('liveId'), arg('background', backgroundBody.shape.background_image)],
      find: [id('liveId')],
    }),
    stage: useCases(Lives.LiveStageService, {
      request: [ACTOR, id('liveId'), arg('message', guestRequestBody.shape.message)],
      approve: liveGuest,
      reject: liveGuest,
      list: [ACTOR, id('liveId'), arg('status', guestQuery.shape.status.unwrap().nullable()), pageRequest],
    }),
    chat: useCases(Lives.LiveChatService, {
      list: [ACTOR, id('liveId'), pageRequest],
      post: [ACTOR, id('liveId'), arg('content', liveCommentBody.shape.content)],
      delete: [ACTOR, id('liveId'), id('commentId')],
    }),
    moderation: useCases(Lives.LiveModerationService, {
      appointModerator: liveGuest,
      blockFromChat: liveGuest,
      state: [ACTOR, id('liveId')],
      report: [ACTOR, id('liveId'), arg('input', liveReportBody)],
      queue: [ACTOR, pageRequest],
    }),
  },
  ports: {
    // lives
    LiveRepository: { suites: ['lives/testing/lives.contract.ts'], via: 'lives' },
    MediaServer: 'no SQL adapter',
  },
} as const;

/** Live broadcasts (lives.php), their media-server tokens and the media server's webhook. */
export const livesModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlLivesAccountData(db));
  w.migrations(LIVES_MIGRATIONS);
  w.bind(LiveRepository, [DatabaseToken], ({ db, dialect }) => new SqlLiveRepository(db, dialect));
  // MEDIA_SERVER_* when all three are set, else config/media_server.local.php as the admin panel last
  // wrote it (read again when it changes): a saved change applies to the next token, no restart.
  w.bind(MediaServer, { config: ConfigToken, clock: Clock, file: MediaServerSettingsStore }, ({ config, clock, file }) => {
    const env = { url: config.media.url, apiKey: config.media.apiKey, apiSecret: config.media.apiSecret };
    const credentials = async () => {
      const { values } = effectiveMediaServer(env, await file.read());
      return values && { url: values.url, apiKey: values.api_key, apiSecret: values.api_secret };
    };
    return new LiveKitMediaServer(credentials, () => clock.now());
  });

  w.construct(Lives.LiveService, LiveService, [LiveRepository, UserRepository, Clock, UnitOfWork, Media.References]);
  w.construct(Lives.LiveStageService, LiveStageService, [LiveRepository, UserRepository, Clock, UnitOfWork]);
  w.construct(Lives.MediaTokenService, MediaTokenService, [LiveRepository, CallRepository, MessageGroupRepository, MediaServer]);
  w.construct(Lives.MediaEventsService, MediaEventsService, [LiveRepository, MediaServer, Clock]);

  w.construct(Lives.LiveChatService, LiveChatService, [LiveRepository, UserRepository, Clock]);
  w.bind(
    Lives.LiveModerationService,
    { lives: LiveRepository, users: UserRepository, clock: Clock, config: ConfigToken },
    ({ lives, users, clock, config }) => new LiveModerationService(lives, users, clock, { suspendAt: config.liveSuspendThreshold }),
  );

  w.script(
    {
      lives: Lives.LiveService,
      stage: Lives.LiveStageService,
      tokens: Lives.MediaTokenService,
      events: Lives.MediaEventsService,
      chat: Lives.LiveChatService,
      moderation: Lives.LiveModerationService,
      p: Platform.Presenters,
    },
    ({ lives, stage, tokens, events, chat, moderation, p }) => livesScript({ lives, stage, tokens, events, chat, moderation }, p),
  );
});
