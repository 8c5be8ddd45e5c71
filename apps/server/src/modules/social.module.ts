import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import {
  FollowEventListeners,
  FollowEvents,
  FollowRepository,
  FollowService,
  FriendEventListeners,
  FriendEvents,
  FriendRequestRepository,
  FriendService,
  OutsideFollowRequests,
} from '@plaza/domain/social';
import { followsScript, listQuery as followListQuery } from '@plaza/adapters-http/scripts/follows';
import { friendsScript } from '@plaza/adapters-http/scripts/friends';
import { SqlFollowRepository, SqlFriendRequestRepository, SqlSocialAccountData } from '@plaza/adapters-mysql/social';
import { featureModule, useCases, many } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';

export const Social = {
  FollowService: token<FollowService>('social.FollowService'),
  FriendService: token<FriendService>('social.FriendService'),
};

/**
 * What social offers outside the container (docs/decisions/0130): `createPlaza().social`,
 * follows and friendships, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'social',
  library: {
    follows: useCases(Social.FollowService, {
      follow: [ACTOR, id('userId')],
      unfollow: [ACTOR, id('userId')],
      list: [ACTOR, arg('userId', followListQuery.shape.user_id), arg('type', followListQuery.shape.type.removeDefault()), pageRequest],
    }),
    friends: useCases(Social.FriendService, {
      send: [ACTOR, id('userId')],
      accept: [ACTOR, id('requestId')],
      reject: [ACTOR, id('requestId')],
      remove: [ACTOR, id('userId')],
      friends: [ACTOR, pageRequest],
      pending: [ACTOR, pageRequest],
    }),
  },
  ports: {
    // social (the list and friend-request cases live in the messaging suite, which is given both)
    FollowRepository: {
      suites: ['social/testing/social.contract.ts', 'messaging/testing/messaging.contract.ts'],
      via: 'follows',
    },
    FriendRequestRepository: {
      suites: ['messaging/testing/messaging.contract.ts', 'shared/testing/unit-of-work.contract.ts'],
      via: 'friends',
    },
    // Bound by federation to its follow approval service (its repository has the SQL suite); e2e tests.
    OutsideFollowRequests: 'no SQL adapter',
  },
} as const;

/** Follows and friendships between local users. */
export const socialModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlSocialAccountData(db));
  w.bind(FollowRepository, [DatabaseToken], ({ db }) => new SqlFollowRepository(db));
  w.bind(FriendRequestRepository, [DatabaseToken], ({ db, dialect }) => new SqlFriendRequestRepository(db, dialect));

  w.bind(
    Social.FollowService,
    { follows: FollowRepository, users: UserRepository, clock: Clock, uow: UnitOfWork, listeners: many(FollowEventListeners) },
    // Every module's follow listeners (the home timeline, the follow notification), called within each change.
    ({ follows, users, clock, uow, listeners }) => new FollowService(follows, users, clock, uow, new FollowEvents(listeners)),
  );
  w.bind(
    Social.FriendService,
    { requests: FriendRequestRepository, users: UserRepository, clock: Clock, uow: UnitOfWork, listeners: many(FriendEventListeners) },
    // Every module's friend request listeners (the notifications), called within each change.
    ({ requests, users, clock, uow, listeners }) => new FriendService(requests, users, clock, uow, new FriendEvents(listeners)),
  );

  w.script([Social.FollowService, Platform.Presenters], followsScript);
  // Follow requests from outside the instance (federation's, docs/decisions/0210) join the pending list.
  w.script({ friends: Social.FriendService, p: Platform.Presenters, outside: many(OutsideFollowRequests) }, ({ friends, p, outside }) =>
    friendsScript(friends, p, outside),
  );
});
