import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CommentRepository, CommentTargets, PostRepository, SurfacePostLookups } from '@plaza/domain/content';
import {
  GroupCommentRepository,
  GroupCommentTarget,
  GroupPostRepository,
  GroupPostService,
  GroupSurfacePosts,
  GroupRepository,
  GroupService,
  GROUP_PRIVACIES,
} from '@plaza/domain/groups';
import { ReportableContents, ReportablePosts } from '@plaza/domain/moderation';
import {
  editGroupCommentBody,
  editGroupPostBody,
  groupCommentsScript,
  groupPostsScript,
  groupReactBody,
  groupReactionsScript,
  newGroupCommentBody,
  newGroupPostBody,
} from '@plaza/adapters-http/scripts/group-posts';
import { groupBody, groupListQuery, groupsScript } from '@plaza/adapters-http/scripts/groups';
import { zId } from '@plaza/adapters-http';
import { z } from 'zod';
import {
  GROUPS_MIGRATIONS,
  SqlGroupAccountData,
  SqlGroupCommentRepository,
  SqlGroupPostRepository,
  SqlGroupRepository,
} from '@plaza/adapters-mysql/groups';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Content } from './content.module.js';
import { Media } from './media.module.js';
import { Notifications } from './notifications.module.js';
import { Platform } from './platform.module.js';

export const Groups = {
  GroupService: token<GroupService>('groups.GroupService'),
  GroupPostService: token<GroupPostService>('groups.GroupPostService'),
};

/** The search of the group lists, named as the services take it (`per_page` is `perPage`). */
const groupSearch = arg(
  'options',
  z.object({ q: groupListQuery.shape.q, page: groupListQuery.shape.page, perPage: groupListQuery.shape.per_page }),
);

/**
 * What groups offers outside the container (docs/decisions/0130): `createPlaza().groups`, groups and
 * their posts, comments and reactions, each method checking its input with its HTTP operation's schema
 * (0113); and the contract suites of its ports.
 */
const face = {
  name: 'groups',
  library: {
    groups: useCases(Groups.GroupService, {
      visibleGroup: [ACTOR, id('groupId')],
      contentOf: [ACTOR, id('groupId')],
      listJoined: [ACTOR, groupSearch],
      discover: [ACTOR, groupSearch],
      members: [ACTOR, id('groupId'), pageRequest],
      joinRequests: [ACTOR, id('groupId'), pageRequest],
      create: [ACTOR, arg('input', groupBody)],
      update: [ACTOR, id('groupId'), arg('input', groupBody)],
      join: [ACTOR, id('groupId')],
      invite: [ACTOR, id('groupId'), id('userId')],
      approveRequest: [ACTOR, id('groupId'), id('userId')],
      rejectRequest: [ACTOR, id('groupId'), id('userId')],
      promote: [ACTOR, id('groupId'), id('userId')],
      demote: [ACTOR, id('groupId'), id('userId')],
      kick: [ACTOR, id('groupId'), id('userId')],
      leave: [ACTOR, id('groupId')],
    }),
    posts: useCases(Groups.GroupPostService, {
      // The notification gate: a user (not an actor) and the group's id and privacy, its other fields passing through.
      canUserSee: [id('userId'), arg('group', z.looseObject({ id: zId, privacy: z.enum(GROUP_PRIVACIES) }))],
      visiblePost: [ACTOR, id('postId')],
      readablePost: [ACTOR, id('postId')],
      list: [ACTOR, id('groupId'), pageRequest],
      view: [ACTOR, id('postId')],
      create: [ACTOR, arg('input', newGroupPostBody)],
      edit: [ACTOR, id('postId'), arg('content', editGroupPostBody.shape.content)],
      delete: [ACTOR, id('postId')],
      removeByModerators: [ACTOR, id('postId')],
      react: [ACTOR, id('postId'), arg('reaction', groupReactBody.shape.reaction_type)],
      unreact: [ACTOR, id('postId')],
      listComments: [ACTOR, id('postId'), pageRequest],
      comment: [ACTOR, arg('input', newGroupCommentBody)],
      editComment: [ACTOR, id('commentId'), arg('content', editGroupCommentBody.shape.content)],
      deleteComment: [ACTOR, id('commentId')],
      visibleComment: [ACTOR, id('commentId')],
    }),
  },
  ports: {
    // groups (community groups; the inbox's group cases live in the groups suite too)
    GroupRepository: { suites: ['groups/testing/groups.contract.ts'], via: 'groups' },
    GroupPostRepository: { suites: ['groups/testing/groups.contract.ts'], via: 'posts' },
    GroupCommentRepository: { suites: ['groups/testing/groups.contract.ts'], via: 'comments' },
  },
} as const;

/**
 * Community groups (groups.php), their posts, comments and reactions (group_posts.php,
 * group_comments.php, group_reactions.php), and group comments in comment_reactions.php through
 * content's `CommentTargets` (docs/decisions/0030). Not the messaging groups of message_groups.php.
 */
export const groupsModule = featureModule(face, (w) => {
  w.migrations(GROUPS_MIGRATIONS);
  w.bind(GroupRepository, [DatabaseToken], ({ db, dialect }) => new SqlGroupRepository(db, dialect));
  w.bind(GroupPostRepository, [DatabaseToken], ({ db, dialect }) => new SqlGroupPostRepository(db, dialect));
  w.bind(GroupCommentRepository, [DatabaseToken], ({ db, dialect }) => new SqlGroupCommentRepository(db, dialect));
  w.accountData([DatabaseToken], ({ db }) => new SqlGroupAccountData(db));

  w.construct(Groups.GroupService, GroupService, [
    GroupRepository,
    UserRepository,
    PostRepository,
    Notifications.NotificationService,
    Clock,
    UnitOfWork,
    Media.References,
  ]);
  w.construct(Groups.GroupPostService, GroupPostService, [
    Groups.GroupService,
    GroupRepository,
    GroupPostRepository,
    GroupCommentRepository,
    CommentRepository,
    PostRepository,
    UserRepository,
    Content.EngagementEvents,
    Clock,
    UnitOfWork,
    Media.References,
  ]);
  w.bind(ReportableContents, [Groups.GroupPostService], (posts) => new ReportablePosts('group', posts.reported));
  // bookmarks.php and shares.php reach group posts through this lookup (post_type `group`).
  w.construct(SurfacePostLookups, GroupSurfacePosts, [Groups.GroupPostService]);
  w.construct(CommentTargets, GroupCommentTarget, [Groups.GroupPostService, GroupRepository, GroupCommentRepository]);

  w.script([Groups.GroupService, Platform.Presenters], groupsScript);
  w.script([Groups.GroupPostService, Platform.Presenters], groupPostsScript);
  w.script([Groups.GroupPostService, Platform.Presenters], groupCommentsScript);
  w.script([Groups.GroupPostService], groupReactionsScript);
});
