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
} from '@plaza/domain/social';
import { followsScript } from '@plaza/adapters-http/scripts/follows';
import { friendsScript } from '@plaza/adapters-http/scripts/friends';
import { SqlFollowRepository, SqlFriendRequestRepository, SqlSocialAccountData } from '@plaza/adapters-mysql/social';
import { featureModule, many } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';

export const Social = {
  FollowService: token<FollowService>('social.FollowService'),
  FriendService: token<FriendService>('social.FriendService'),
};

/** Follows and friendships between local users. */
export const socialModule = featureModule((w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlSocialAccountData(db));
  w.bind(FollowRepository, [DatabaseToken], ({ db }) => new SqlFollowRepository(db));
  w.bind(FriendRequestRepository, [DatabaseToken], ({ db, dialect }) => new SqlFriendRequestRepository(db, dialect));

  w.bind(
    Social.FollowService,
    [FollowRepository, UserRepository, Clock, UnitOfWork, many(FollowEventListeners)],
    // Every module's follow listeners (the home timeline, the follow notification), called within each change.
    (follows, users, clock, uow, listeners) => new FollowService(follows, users, clock, uow, new FollowEvents(listeners)),
  );
  w.bind(
    Social.FriendService,
    [FriendRequestRepository, UserRepository, Clock, UnitOfWork, many(FriendEventListeners)],
    // Every module's friend request listeners (the notifications), called within each change.
    (requests, users, clock, uow, listeners) => new FriendService(requests, users, clock, uow, new FriendEvents(listeners)),
  );

  w.script([Social.FollowService, Platform.Presenters], followsScript);
  w.script([Social.FriendService, Platform.Presenters], friendsScript);
});
