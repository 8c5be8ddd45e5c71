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
import {
  messageGroupsScript,
  editGroupMessageBody,
  groupListQuery,
  groupMessageBody,
  groupReactionBody,
  groupTypingBody,
  groupUpdateBody,
  newGroupBody,
} from '@plaza/adapters-http/scripts/message-groups';
import {
  messagesScript,
  autoDeleteBody,
  editMessageBody,
  messageBody,
  reactionBody,
  search,
  typingBody,
} from '@plaza/adapters-http/scripts/messages';
import {
  SqlMessageGroupRepository,
  SqlMessagingAccountData,
  SqlPrivateMessageRepository,
  SqlTypingRepository,
} from '@plaza/adapters-mysql/messaging';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';
import { z } from 'zod';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';

export const Messaging = {
  PrivateMessageService: token<PrivateMessageService>('messaging.PrivateMessageService'),
  MessageGroupService: token<MessageGroupService>('messaging.MessageGroupService'),
  TypingService: token<TypingService>('messaging.TypingService'),
};

/**
 * What messaging offers outside the container (docs/decisions/0130): `createPlaza().messaging`,
 * private messages, messaging groups and typing, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'messaging',
  library: {
    privateMessages: useCases(Messaging.PrivateMessageService, {
      send: [ACTOR, id('recipientId'), arg('input', z.object(messageBody))],
      thread: [ACTOR, id('peerId'), pageRequest, arg('q', search)],
      conversations: [ACTOR, pageRequest, arg('q', search)],
      edit: [ACTOR, id('messageId'), arg('content', editMessageBody.shape.content)],
      delete: [ACTOR, id('messageId')],
      deleteConversation: [ACTOR, id('peerId')],
      react: [ACTOR, id('messageId'), arg('reaction', reactionBody.shape.reaction.unwrap())],
      unreact: [ACTOR, id('messageId')],
      settings: [ACTOR, id('peerId')],
      setAutoDelete: [ACTOR, id('peerId'), arg('minutes', autoDeleteBody.shape.auto_delete_time)],
      deleteExpired: [],
    }),
    groups: useCases(Messaging.MessageGroupService, {
      list: [ACTOR, pageRequest, arg('q', groupListQuery.shape.q)],
      create: [ACTOR, arg('input', newGroupBody)],
      details: [ACTOR, id('groupId')],
      update: [ACTOR, id('groupId'), arg('patch', groupUpdateBody)],
      leave: [ACTOR, id('groupId')],
      addMember: [ACTOR, id('groupId'), id('userId')],
      removeMember: [ACTOR, id('groupId'), id('userId')],
      approve: [ACTOR, id('groupId'), id('requestId')],
      reject: [ACTOR, id('groupId'), id('requestId')],
      messages: [ACTOR, id('groupId'), pageRequest],
      send: [ACTOR, id('groupId'), arg('input', groupMessageBody)],
      editMessage: [ACTOR, id('messageId'), arg('content', editGroupMessageBody.shape.content)],
      deleteMessage: [ACTOR, id('messageId')],
      react: [ACTOR, id('messageId'), arg('reaction', groupReactionBody.shape.reaction.unwrap())],
      unreact: [ACTOR, id('messageId')],
      deleteExpired: [],
      assertMember: [ACTOR, id('groupId')],
    }),
    typing: useCases(Messaging.TypingService, {
      setPrivate: [ACTOR, id('recipientId'), arg('isTyping', typingBody.shape.is_typing.removeDefault())],
      privateTypists: [ACTOR, id('peerId')],
      setGroup: [ACTOR, id('groupId'), arg('isTyping', groupTypingBody.shape.is_typing.removeDefault())],
      groupTypists: [ACTOR, id('groupId')],
      purge: [],
    }),
  },
  ports: {
    // messaging
    PrivateMessageRepository: { suites: ['messaging/testing/messaging.contract.ts'], via: 'messages' },
    MessageGroupRepository: {
      suites: ['messaging/testing/messaging.contract.ts', 'shared/testing/unit-of-work.contract.ts'],
      via: 'groups',
    },
    TypingRepository: { suites: ['messaging/testing/messaging.contract.ts'], via: 'typing' },
  },
} as const;

/** Private messages, messaging groups and typing indicators. */
export const messagingModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlMessagingAccountData(db));
  w.bind(PrivateMessageRepository, [DatabaseToken], ({ db, dialect }) => new SqlPrivateMessageRepository(db, dialect));
  w.bind(MessageGroupRepository, [DatabaseToken], ({ db, dialect }) => new SqlMessageGroupRepository(db, dialect));
  w.bind(TypingRepository, [DatabaseToken], ({ db, dialect }) => new SqlTypingRepository(db, dialect));

  w.bind(
    Messaging.PrivateMessageService,
    {
      messages: PrivateMessageRepository,
      users: UserRepository,
      push: PushSender,
      clock: Clock,
      uow: UnitOfWork,
      follows: FollowRepository,
      friends: FriendRequestRepository,
      media: Media.References,
    },
    ({ messages, users, push, clock, uow, follows, friends, media }) =>
      new PrivateMessageService(messages, users, push, clock, uow, { follows, friends }, media),
  );
  w.construct(Messaging.MessageGroupService, MessageGroupService, [
    MessageGroupRepository,
    UserRepository,
    PushSender,
    Clock,
    UnitOfWork,
    Media.References,
  ]);
  w.construct(Messaging.TypingService, TypingService, [TypingRepository, UserRepository, Messaging.MessageGroupService, Clock]);

  w.script([Messaging.PrivateMessageService, Messaging.TypingService, Platform.Presenters], messagesScript);
  w.script([Messaging.MessageGroupService, Messaging.TypingService, Platform.Presenters], messageGroupsScript);
  w.job(
    { name: 'auto-delete-messages', everyMs: 60_000 },
    { messages: Messaging.PrivateMessageService, groups: Messaging.MessageGroupService, typing: Messaging.TypingService },
    ({ messages, groups, typing }) =>
      async () => {
        await messages.deleteExpired();
        await groups.deleteExpired();
        await typing.purge();
      },
  );
});
