import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import {
  MessageGroupRepository,
  MessageGroupService,
  PrivateMessageRepository,
  PrivateMessageService,
  TypingRepository,
  TypingService,
} from '@plaza/domain/messaging';
import { PushSender } from '@plaza/domain/notifications';
import { FollowRepository, FriendRequestRepository } from '@plaza/domain/social';
import { messageGroupsScript } from '@plaza/adapters-http/scripts/message-groups';
import { messagesScript } from '@plaza/adapters-http/scripts/messages';
import {
  SqlMessageGroupRepository,
  SqlMessagingAccountData,
  SqlPrivateMessageRepository,
  SqlTypingRepository,
} from '@plaza/adapters-mysql/messaging';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Messaging = {
  PrivateMessageService: token<PrivateMessageService>('messaging.PrivateMessageService'),
  MessageGroupService: token<MessageGroupService>('messaging.MessageGroupService'),
  TypingService: token<TypingService>('messaging.TypingService'),
};

/** Private messages, messaging groups and typing indicators. */
export const messagingModule = featureModule((w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlMessagingAccountData(db));
  w.bind(PrivateMessageRepository, [DatabaseToken], ({ db, dialect }) => new SqlPrivateMessageRepository(db, dialect));
  w.bind(MessageGroupRepository, [DatabaseToken], ({ db, dialect }) => new SqlMessageGroupRepository(db, dialect));
  w.bind(TypingRepository, [DatabaseToken], ({ db, dialect }) => new SqlTypingRepository(db, dialect));

  w.bind(
    Messaging.PrivateMessageService,
    [PrivateMessageRepository, UserRepository, PushSender, Clock, UnitOfWork, FollowRepository, FriendRequestRepository, Media.References],
    (messages, users, push, clock, uow, follows, friends, media) =>
      new PrivateMessageService(messages, users, push, clock, uow, { follows, friends }, media),
  );
  w.bind(
    Messaging.MessageGroupService,
    [MessageGroupRepository, UserRepository, PushSender, Clock, UnitOfWork, Media.References],
    (groups, users, push, clock, uow, media) => new MessageGroupService(groups, users, push, clock, uow, media),
  );
  w.bind(
    Messaging.TypingService,
    [TypingRepository, UserRepository, Messaging.MessageGroupService, Clock],
    (typing, users, groups, clock) => new TypingService(typing, users, groups, clock),
  );

  w.script([Messaging.PrivateMessageService, Messaging.TypingService, Platform.Presenters], messagesScript);
  w.script([Messaging.MessageGroupService, Messaging.TypingService, Platform.Presenters], messageGroupsScript);
  w.job(
    { name: 'auto-delete-messages', everyMs: 60_000 },
    [Messaging.PrivateMessageService, Messaging.MessageGroupService, Messaging.TypingService],
    (messages, groups, typing) => async () => {
      await messages.deleteExpired();
      await groups.deleteExpired();
      await typing.purge();
    },
  );
});
