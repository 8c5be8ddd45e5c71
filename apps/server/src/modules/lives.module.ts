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
import { livesScript } from '@plaza/adapters-http/scripts/lives';
import { LiveKitMediaServer, mediaServerCredentials } from '@plaza/adapters-integrations/livekit';
import { LIVES_MIGRATIONS, SqlLiveRepository } from '@plaza/adapters-mysql/lives';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';

export const Lives = {
  LiveService: token<LiveService>('lives.LiveService'),
  LiveStageService: token<LiveStageService>('lives.LiveStageService'),
  MediaTokenService: token<MediaTokenService>('lives.MediaTokenService'),
  MediaEventsService: token<MediaEventsService>('lives.MediaEventsService'),
  LiveChatService: token<LiveChatService>('lives.LiveChatService'),
  LiveModerationService: token<LiveModerationService>('lives.LiveModerationService'),
};

/** Live broadcasts (lives.php), their media-server tokens and the media server's webhook. */
export const livesModule = featureModule((w) => {
  w.migrations(LIVES_MIGRATIONS);
  w.bind(LiveRepository, [DatabaseToken], ({ db, dialect }) => new SqlLiveRepository(db, dialect));
  w.bind(MediaServer, [ConfigToken, Clock], (config, clock) => {
    const { url, apiKey, apiSecret, configFile } = config.media;
    return new LiveKitMediaServer(mediaServerCredentials({ url: url ?? undefined, apiKey: apiKey ?? undefined, apiSecret: apiSecret ?? undefined }, configFile), () => clock.now());
  });

  w.bind(Lives.LiveService, [LiveRepository, UserRepository, Clock, UnitOfWork], (lives, users, clock, uow) => new LiveService(lives, users, clock, uow));
  w.bind(Lives.LiveStageService, [LiveRepository, UserRepository, Clock, UnitOfWork], (lives, users, clock, uow) => new LiveStageService(lives, users, clock, uow));
  w.bind(
    Lives.MediaTokenService,
    [LiveRepository, CallRepository, MessageGroupRepository, MediaServer],
    (lives, calls, groups, media) => new MediaTokenService(lives, calls, groups, media),
  );
  w.bind(Lives.MediaEventsService, [LiveRepository, MediaServer, Clock], (lives, media, clock) => new MediaEventsService(lives, media, clock));

  w.bind(Lives.LiveChatService, [LiveRepository, UserRepository, Clock], (lives, users, clock) => new LiveChatService(lives, users, clock));
  w.bind(
    Lives.LiveModerationService,
    [LiveRepository, UserRepository, Clock, ConfigToken],
    (lives, users, clock, config) => new LiveModerationService(lives, users, clock, { suspendAt: config.liveSuspendThreshold }),
  );

  w.script(
    [Lives.LiveService, Lives.LiveStageService, Lives.MediaTokenService, Lives.MediaEventsService, Lives.LiveChatService, Lives.LiveModerationService, Platform.Presenters],
    (lives, stage, tokens, events, chat, moderation, p) => livesScript({ lives, stage, tokens, events, chat, moderation }, p),
  );
});
