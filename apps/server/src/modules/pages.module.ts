import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CommentTargets, SurfacePostLookups } from '@plaza/domain/content';
import { ReportableContents, ReportablePosts } from '@plaza/domain/moderation';
import {
  PAGE_PERMISSIONS,
  PageCommentTarget,
  PagePostRepository,
  PageSurfacePosts,
  PagePostService,
  PageRepository,
  PageService,
} from '@plaza/domain/pages';
import {
  newPageBody,
  newPagePostBody,
  pageCommentBody,
  pageCommentEditBody,
  pageListQuery,
  pagePostEditBody,
  pageReactBody,
  pagesScript,
  pageTeamMemberBody,
  pageTeamRoleBody,
  pageUpdateBody,
} from '@plaza/adapters-http/scripts/pages';
import { z } from 'zod';
import { PAGES_MIGRATIONS, SqlPageAccountData, SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Pages = {
  PageService: token<PageService>('pages.PageService'),
  PagePostService: token<PagePostService>('pages.PagePostService'),
};

/**
 * Use cases no HTTP operation calls directly (the other contexts' and the script's own steps, public on
 * their service): checked for the shape the service reads, since there is no operation's schema to share.
 */
const pageListKind = z.enum(['managed', 'followed', 'discover']);
const pagePermission = z.enum(Object.keys(PAGE_PERMISSIONS) as [keyof typeof PAGE_PERMISSIONS, ...(keyof typeof PAGE_PERMISSIONS)[]]);
const accountRecord = z.looseObject({ id: z.number().int().positive(), username: z.string() });

/**
 * What pages offers outside the container (docs/decisions/0130): `createPlaza().pages`, pages with their
 * team and followers, and their posts, reactions and comments, each method checking its input with its
 * HTTP operation's schema (0113).
 */
const face = {
  name: 'pages',
  library: {
    pages: useCases(Pages.PageService, {
      list: [ACTOR, arg('kind', pageListKind), arg('q', pageListQuery.shape.q.unwrap().nullable()), pageRequest],
      visiblePage: [ACTOR, id('pageId')],
      canUserSee: [arg('user', accountRecord), id('pageId')],
      pageAllowing: [ACTOR, id('pageId'), arg('permission', pagePermission), arg('refusal', z.string())],
      teamOf: [ACTOR, id('pageId')],
      create: [ACTOR, arg('input', newPageBody)],
      update: [ACTOR, id('pageId'), arg('input', pageUpdateBody.omit({ page_id: true }))],
      follow: [ACTOR, id('pageId')],
      unfollow: [ACTOR, id('pageId')],
      followers: [ACTOR, id('pageId'), pageRequest],
      team: [ACTOR, id('pageId'), pageRequest],
      addTeamMember: [
        ACTOR,
        id('pageId'),
        arg('username', pageTeamMemberBody.shape.username),
        arg('role', pageTeamMemberBody.shape.role.removeDefault()),
      ],
      updateTeamRole: [ACTOR, id('pageId'), id('userId'), arg('role', pageTeamRoleBody.shape.role)],
      removeTeamMember: [ACTOR, id('pageId'), id('userId')],
      removeFollower: [ACTOR, id('pageId'), id('userId')],
    }),
    posts: useCases(Pages.PagePostService, {
      list: [ACTOR, id('pageId'), pageRequest],
      create: [ACTOR, arg('input', newPagePostBody)],
      update: [ACTOR, id('postId'), arg('content', pagePostEditBody.shape.content)],
      delete: [ACTOR, id('postId')],
      react: [ACTOR, id('postId'), arg('type', pageReactBody.shape.type.removeDefault())],
      comments: [ACTOR, id('pageId'), id('postId'), pageRequest],
      comment: [ACTOR, id('postId'), arg('content', pageCommentBody.shape.content)],
      updateComment: [ACTOR, id('commentId'), arg('content', pageCommentEditBody.shape.content)],
      deleteComment: [ACTOR, id('commentId')],
      visibleComment: [ACTOR, id('commentId')],
      visiblePost: [ACTOR, id('postId')],
    }),
  },
  ports: {
    // pages, events, albums
    PageRepository: { suites: ['pages/testing/pages.contract.ts'], via: 'pages' },
    PagePostRepository: { suites: ['pages/testing/pages.contract.ts'], via: 'posts' },
  },
} as const;

/** Pages of collectives: their team (page_admins), followers, posts, reactions and comments (docs/decisions/0035–0036). */
export const pagesModule = featureModule(face, (w) => {
  w.migrations(PAGES_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlPageAccountData(db));
  w.bind(PageRepository, [DatabaseToken], ({ db, dialect }) => new SqlPageRepository(db, dialect));
  w.bind(PagePostRepository, [DatabaseToken], ({ db, dialect }) => new SqlPagePostRepository(db, dialect));
  w.construct(Pages.PageService, PageService, [PageRepository, UserRepository, Clock, UnitOfWork, Media.References]);
  w.construct(Pages.PagePostService, PagePostService, [
    Pages.PageService,
    PagePostRepository,
    UserRepository,
    Clock,
    UnitOfWork,
    Media.References,
  ]);
  // comment_reactions.php reaches page comments through this target (comment_type `page`).
  w.bind(ReportableContents, [Pages.PagePostService], (posts) => new ReportablePosts('page', posts.reported));
  // bookmarks.php and shares.php reach page posts through this lookup (post_type `page`).
  w.construct(SurfacePostLookups, PageSurfacePosts, [Pages.PagePostService]);
  w.construct(CommentTargets, PageCommentTarget, [Pages.PageService, Pages.PagePostService, PagePostRepository, UserRepository]);
  w.script([Pages.PageService, Pages.PagePostService, Platform.Presenters], pagesScript);
});
