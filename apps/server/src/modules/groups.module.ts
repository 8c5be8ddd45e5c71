import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CommentRepository, CommentTargets, PostRepository } from '@plaza/domain/content';
import {
  GroupCommentRepository,
  GroupCommentTarget,
  GroupPostRepository,
  GroupPostService,
  GroupRepository,
  GroupService,
} from '@plaza/domain/groups';
import { ReportableContents, ReportablePosts } from '@plaza/domain/moderation';
import { groupCommentsScript, groupPostsScript, groupReactionsScript } from '@plaza/adapters-http/scripts/group-posts';
import { groupsScript } from '@plaza/adapters-http/scripts/groups';
import {
  GROUPS_MIGRATIONS,
  SqlGroupAccountData,
  SqlGroupCommentRepository,
  SqlGroupPostRepository,
  SqlGroupRepository,
} from '@plaza/adapters-mysql/groups';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Content } from './content.module.js';
import { Media } from './media.module.js';
import { Notifications } from './notifications.module.js';
import { Platform } from './platform.module.js';

export const Groups = {
  GroupService: token<GroupService>('groups.GroupService'),
  GroupPostService: token<GroupPostService>('groups.GroupPostService'),
};

/** What groups declares outside the container (docs/decisions/0130): the contract suites of its ports. */
const face = {
  name: 'groups',
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

  w.bind(
    Groups.GroupService,
    [GroupRepository, UserRepository, PostRepository, Notifications.NotificationService, Clock, UnitOfWork, Media.References],
    (groups, users, people, notifications, clock, uow, media) => new GroupService(groups, users, people, notifications, clock, uow, media),
  );
  w.bind(
    Groups.GroupPostService,
    [
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
    ],
    (service, groups, posts, comments, commentReactions, people, users, events, clock, uow, media) =>
      new GroupPostService(service, groups, posts, comments, commentReactions, people, users, events, clock, uow, media),
  );
  w.bind(ReportableContents, [Groups.GroupPostService], (posts) => new ReportablePosts('group', posts.reported));
  w.bind(
    CommentTargets,
    [Groups.GroupPostService, GroupRepository, GroupCommentRepository],
    (posts, groups, comments) => new GroupCommentTarget(posts, groups, comments),
  );

  w.script([Groups.GroupService, Platform.Presenters], groupsScript);
  w.script([Groups.GroupPostService, Platform.Presenters], groupPostsScript);
  w.script([Groups.GroupPostService, Platform.Presenters], groupCommentsScript);
  w.script([Groups.GroupPostService], groupReactionsScript);
});
