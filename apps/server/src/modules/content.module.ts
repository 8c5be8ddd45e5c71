import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import {
  CommentRepository,
  CommentService,
  CommentTargets,
  EngagementService,
  PostEngagementRepository,
  PostEventListeners,
  PostEvents,
  PostRepository,
  PostService,
  StoryRepository,
  StoryService,
} from '@plaza/domain/content';
import { FollowRepository } from '@plaza/domain/social';
import { bookmarksScript } from '@plaza/adapters-http/scripts/bookmarks';
import { commentReactionsScript } from '@plaza/adapters-http/scripts/comment-reactions';
import { commentsScript } from '@plaza/adapters-http/scripts/comments';
import { postsScript } from '@plaza/adapters-http/scripts/posts';
import { likesScript, reactionsScript } from '@plaza/adapters-http/scripts/reactions';
import { sharesScript } from '@plaza/adapters-http/scripts/shares';
import { storiesScript } from '@plaza/adapters-http/scripts/stories';
import {
  SqlCommentRepository,
  SqlContentAccountData,
  SqlPostEngagementRepository,
  SqlPostRepository,
  SqlStoryRepository,
} from '@plaza/adapters-mysql/content';
import { ExportedPosts } from '@plaza/domain/accounts';
import { featureModule, many } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Notifications } from './notifications.module.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';
import { Timeline } from './timeline.module.js';

export const Content = {
  PostService: token<PostService>('content.PostService'),
  EngagementService: token<EngagementService>('content.EngagementService'),
  CommentService: token<CommentService>('content.CommentService'),
  StoryService: token<StoryService>('content.StoryService'),
};

/** Posts and shares, reactions, likes, bookmarks, comments and stories. */
export const contentModule = featureModule((w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlContentAccountData(db));
  w.bind(ExportedPosts, [DatabaseToken], ({ db }) => new SqlContentAccountData(db));
  w.bind(PostRepository, [DatabaseToken], ({ db }) => new SqlPostRepository(db));
  w.bind(PostEngagementRepository, [DatabaseToken], ({ db, dialect }) => new SqlPostEngagementRepository(db, dialect));
  w.bind(CommentRepository, [DatabaseToken], ({ db, dialect }) => new SqlCommentRepository(db, dialect));
  w.bind(StoryRepository, [DatabaseToken], ({ db }) => new SqlStoryRepository(db));

  w.bind(
    Content.PostService,
    [
      PostRepository,
      FollowRepository,
      UserRepository,
      Notifications.NotificationService,
      Clock,
      UnitOfWork,
      Media.References,
      many(PostEventListeners),
      Timeline.HomeTimeline,
    ],
    // Every module's post lifecycle listeners (home timeline, federation, …), called within each write;
    // the following feed reads the precomputed timeline.
    (posts, follows, users, notifications, clock, uow, media, listeners, timeline) =>
      new PostService(posts, follows, users, notifications, clock, uow, media, new PostEvents(listeners), timeline),
  );
  w.bind(
    Content.EngagementService,
    [Content.PostService, PostEngagementRepository, Notifications.NotificationService, Clock, UnitOfWork],
    (posts, engagement, notifications, clock, uow) => new EngagementService(posts, engagement, notifications, clock, uow),
  );
  w.bind(
    Content.CommentService,
    [
      Content.PostService,
      PostRepository,
      CommentRepository,
      UserRepository,
      Notifications.NotificationService,
      Clock,
      UnitOfWork,
      many(CommentTargets),
    ],
    (posts, postRepo, comments, users, notifications, clock, uow, targets) =>
      new CommentService(posts, postRepo, comments, users, notifications, clock, uow, targets),
  );
  w.bind(
    Content.StoryService,
    [StoryRepository, PostRepository, FollowRepository, Clock, Media.References],
    (stories, posts, follows, clock, media) => new StoryService(stories, posts, follows, clock, media),
  );

  w.script([Content.PostService, Platform.Presenters], postsScript);
  w.script([Content.CommentService, Platform.Presenters], commentsScript);
  w.script([Content.CommentService, Platform.Presenters], commentReactionsScript);
  w.script([Content.EngagementService], reactionsScript);
  w.script([Content.EngagementService], likesScript);
  w.script([Content.PostService, Content.EngagementService, Platform.Presenters], bookmarksScript);
  w.script([Content.EngagementService], sharesScript);
  w.script([Content.StoryService, Platform.Presenters], storiesScript);
  w.job({ name: 'purge-expired-stories', everyMs: 10 * 60_000 }, [Content.StoryService], (stories) => () => stories.purgeExpired());
});
