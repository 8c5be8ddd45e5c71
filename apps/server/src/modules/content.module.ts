import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository, ExportedPosts } from '@plaza/domain/accounts';
import {
  CommentEventListeners,
  CommentEvents,
  CommentRepository,
  CommentService,
  CommentTargets,
  RemoteCommentAuthors,
  RemoteCommentReactions,
  EngagementEvents,
  EngagementListeners,
  EngagementService,
  PostEngagementRepository,
  PostEventListeners,
  PostEvents,
  PostRepository,
  PostService,
  StoryRepository,
  StoryService,
  SurfaceEngagementRepository,
  SurfaceEngagementService,
  SurfacePostViews,
  SurfacePostLookups,
  POST_TYPES,
  COMMENT_MAX_LENGTH,
} from '@plaza/domain/content';
import { FollowRepository } from '@plaza/domain/social';
import { bookmarksScript } from '@plaza/adapters-http/scripts/bookmarks';
import { commentReactionsScript, commentReactBody, commentType } from '@plaza/adapters-http/scripts/comment-reactions';
import { commentsScript, editCommentBody, newCommentBody } from '@plaza/adapters-http/scripts/comments';
import { postsScript, createBody, editBody, feedQuery } from '@plaza/adapters-http/scripts/posts';
import { likesScript, reactionsScript, reactBody } from '@plaza/adapters-http/scripts/reactions';
import { sharesScript } from '@plaza/adapters-http/scripts/shares';
import { storiesScript, storyBody } from '@plaza/adapters-http/scripts/stories';
import {
  CONTENT_MIGRATIONS,
  SqlCommentRepository,
  SqlSurfaceEngagementRepository,
  SqlContentAccountData,
  SqlPostEngagementRepository,
  SqlPostRepository,
  SqlStoryRepository,
} from '@plaza/adapters-mysql/content';
import { z } from 'zod';
import { featureModule, useCases, many } from '../wiring/feature-module.js';
import { CounterContributions, DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';
import { Timeline } from './timeline.module.js';
import { ACTOR, arg, id, page } from '../library-input.js';

export const Content = {
  /** Every module's engagement listeners (notifications raises its notices from them), called within each write. */
  EngagementEvents: token<EngagementEvents>('content.EngagementEvents'),
  PostService: token<PostService>('content.PostService'),
  EngagementService: token<EngagementService>('content.EngagementService'),
  CommentService: token<CommentService>('content.CommentService'),
  StoryService: token<StoryService>('content.StoryService'),
  /** Bookmarks and shares of every surface's posts (docs/decisions/0195). */
  SurfaceEngagementService: token<SurfaceEngagementService>('content.SurfaceEngagementService'),
};

/**
 * What content offers outside the container (docs/decisions/0130): `createPlaza().content`,
 * posts, engagement, comments and stories, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'content',
  library: {
    posts: useCases(Content.PostService, {
      feed: [ACTOR, arg('kind', feedQuery.shape.feed_type.unwrap().exclude([''])), ...page],
      wall: [ACTOR, id('userId'), ...page],
      bookmarks: [ACTOR, ...page],
      view: [ACTOR, id('postId')],
      visiblePost: [ACTOR, id('postId')],
      create: [ACTOR, arg('input', createBody)],
      edit: [ACTOR, id('postId'), arg('input', editBody)],
      delete: [ACTOR, id('postId')],
    }),
    engagement: useCases(Content.EngagementService, {
      react: [ACTOR, id('postId'), arg('type', reactBody.shape.reaction_type)],
      unreact: [ACTOR, id('postId')],
      reactions: [ACTOR, id('postId')],
      share: [ACTOR, id('postId')],
      bookmark: [ACTOR, id('postId')],
      unbookmark: [ACTOR, id('postId')],
    }),
    bookmarks: useCases(Content.SurfaceEngagementService, {
      bookmarks: [ACTOR, ...page],
      bookmark: [ACTOR, id('postId'), arg('type', z.enum(POST_TYPES))],
      unbookmark: [ACTOR, id('postId'), arg('type', z.enum(POST_TYPES))],
      share: [ACTOR, id('postId'), arg('type', z.enum(POST_TYPES))],
    }),
    comments: useCases(Content.CommentService, {
      list: [ACTOR, id('postId'), ...page],
      create: [ACTOR, arg('input', newCommentBody(COMMENT_MAX_LENGTH))],
      edit: [ACTOR, id('commentId'), arg('content', editCommentBody.shape.content)],
      delete: [ACTOR, id('commentId')],
      react: [ACTOR, arg('type', commentType), id('commentId'), arg('reaction', commentReactBody.shape.reaction_type)],
      unreact: [ACTOR, arg('type', commentType), id('commentId')],
      reactions: [ACTOR, arg('type', commentType), id('commentId')],
    }),
    stories: useCases(Content.StoryService, {
      active: [ACTOR],
      ofUser: [ACTOR, id('userId')],
      create: [ACTOR, arg('input', storyBody)],
      delete: [ACTOR, id('storyId')],
      purgeExpired: [],
    }),
  },
  ports: {
    ExportedPosts: { suites: ['accounts/testing/account-settings.contract.ts'], via: 'reader' },
    // content
    RemoteCommentAuthors: 'no SQL adapter',
    // Bound by federation over its own repository (RemoteInteractionRepository's contract holds the reads).
    RemoteCommentReactions: 'no SQL adapter',
    PostRepository: { suites: ['content/testing/content.contract.ts'], via: 'posts' },
    PostEngagementRepository: { suites: ['content/testing/content.contract.ts'], via: 'engagement' },
    CommentRepository: { suites: ['content/testing/content.contract.ts'], via: 'comments' },
    StoryRepository: { suites: ['content/testing/content.contract.ts'], via: 'stories' },
    SurfaceEngagementRepository: { suites: ['content/testing/surface-engagement.contract.ts'], via: 'surfaces' },
  },
} as const;

/** Posts and shares, reactions, likes, bookmarks, comments and stories. */
export const contentModule = featureModule(face, (w) => {
  w.migrations(CONTENT_MIGRATIONS);
  w.accountData(
    { handle: DatabaseToken, contributions: many(CounterContributions) },
    ({ handle, contributions }) => new SqlContentAccountData(handle.db, contributions),
  );
  w.bind(ExportedPosts, [DatabaseToken], ({ db }) => new SqlContentAccountData(db));
  w.bind(PostRepository, [DatabaseToken], ({ db }) => new SqlPostRepository(db));
  w.bind(PostEngagementRepository, [DatabaseToken], ({ db, dialect }) => new SqlPostEngagementRepository(db, dialect));
  w.bind(CommentRepository, [DatabaseToken], ({ db, dialect }) => new SqlCommentRepository(db, dialect));
  w.bind(StoryRepository, [DatabaseToken], ({ db }) => new SqlStoryRepository(db));
  w.bind(SurfaceEngagementRepository, [DatabaseToken], ({ db }) => new SqlSurfaceEngagementRepository(db));
  w.construct(Content.EngagementEvents, EngagementEvents, [many(EngagementListeners)]);

  w.bind(
    Content.PostService,
    [
      PostRepository,
      CommentRepository,
      PostEngagementRepository,
      FollowRepository,
      UserRepository,
      Content.EngagementEvents,
      Clock,
      UnitOfWork,
      Media.References,
      many(PostEventListeners),
      Timeline.HomeTimeline,
      SurfaceEngagementRepository,
      many(CommentEventListeners),
    ],
    // Every module's post and comment lifecycle listeners (home timeline, federation, …), called within
    // each write; the following feed reads the precomputed timeline; walls show shares of group and page posts.
    (posts, comments, reactions, follows, users, engagement, clock, uow, media, listeners, timeline, surfaces, commentListeners) =>
      new PostService(
        posts,
        comments,
        reactions,
        follows,
        users,
        engagement,
        clock,
        uow,
        media,
        new PostEvents(listeners),
        timeline,
        new SurfacePostViews(posts, surfaces),
        new CommentEvents(commentListeners),
      ),
  );
  w.construct(Content.EngagementService, EngagementService, [
    Content.PostService,
    PostEngagementRepository,
    Content.EngagementEvents,
    Clock,
    UnitOfWork,
  ]);
  w.bind(
    Content.SurfaceEngagementService,
    [
      Content.EngagementService,
      PostRepository,
      SurfaceEngagementRepository,
      many(SurfacePostLookups),
      Clock,
      UnitOfWork,
      Content.PostService,
      Content.EngagementEvents,
    ],
    // A share of a group or page post fans out as the wall's do (the post listeners) and tells its author (docs/decisions/0230).
    (wall, posts, engagement, lookups, clock, uow, postService, events) =>
      new SurfaceEngagementService(wall, posts, engagement, lookups, clock, uow, { posts: postService.events, engagement: events }),
  );
  w.construct(Content.CommentService, CommentService, [
    Content.PostService,
    PostRepository,
    CommentRepository,
    Content.EngagementEvents,
    Clock,
    UnitOfWork,
    many(CommentTargets),
    many(RemoteCommentAuthors),
    many(RemoteCommentReactions),
  ]);
  w.construct(Content.StoryService, StoryService, [StoryRepository, PostRepository, FollowRepository, Clock, Media.References]);

  w.script([Content.PostService, Platform.Presenters], postsScript);
  w.script([Content.CommentService, Platform.Presenters], commentsScript);
  w.script([Content.CommentService, Platform.Presenters], commentReactionsScript);
  w.script([Content.EngagementService], reactionsScript);
  w.script([Content.EngagementService], likesScript);
  w.script([Content.SurfaceEngagementService, Platform.Presenters], bookmarksScript);
  w.script([Content.SurfaceEngagementService], sharesScript);
  w.script([Content.StoryService, Platform.Presenters], storiesScript);
  w.job({ name: 'purge-expired-stories', everyMs: 10 * 60_000 }, [Content.StoryService], (stories) => () => stories.purgeExpired());
});
