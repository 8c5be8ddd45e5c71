import { type Actor, Invalid, pageMeta, pageRequest, type PageRequest, type RateLimitGroup } from '@plaza/domain';
import { REACTION_TYPES } from '@plaza/domain/content';
import {
  MAX_PAGE_COMMENT_LENGTH,
  MAX_PAGE_DESCRIPTION,
  MAX_PAGE_NAME,
  MAX_PAGE_POST_LENGTH,
  MAX_PAGE_SHORT_TEXT,
  PAGE_PRIVACIES,
  PAGE_ROLES,
  type PagePostService,
  type PageService,
} from '@plaza/domain/pages';
import { z } from 'zod';
import { paginationQuery, zFlag, zId, zText } from '../http/fields.js';
import { op, type AnyOperation, type Infer, type Script, type Selector } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  PageCommentItem,
  PageDetailsItem,
  PageFollowerItem,
  PageListItem,
  PagePostItem,
  PageTeamItem,
  presentPageComment,
  presentPageDetails,
  presentPageFollower,
  presentPageListItem,
  presentPagePost,
  presentPageTeamMember,
} from '../presenters/pages.js';
import { PageMetaWire, zCount, zWireId } from '../presenters/wire.js';
import { editOperation } from './edit-and-delete-operations.js';

const short = zText(MAX_PAGE_SHORT_TEXT).nullish();
/** The fields of create and update_page (contract §22.2). */
const pageFields = {
  description: zText(MAX_PAGE_DESCRIPTION).nullish(),
  category: short,
  location: short,
  website: short,
  privacy: z.enum(PAGE_PRIVACIES).optional(),
  avatar: z.string().max(512).nullish(),
  cover_image: z.string().max(512).nullish(),
  social_twitter: short,
  social_mastodon: short,
  social_instagram: short,
  social_tiktok: short,
  social_facebook: short,
  social_bluesky: short,
};
/** The bodies and queries below are shared with the library's `pages` use cases (docs/decisions/0130). */
/** The body of a new page (create). */
export const newPageBody = z.object({ name: zText(MAX_PAGE_NAME), ...pageFields });
/** update_page: absent fields stay as they are. */
export const pageUpdateBody = z.object({ page_id: zId, name: zText(MAX_PAGE_NAME).optional(), ...pageFields });
/** The lists of pages (managed, discover, followed). */
export const pageListQuery = z.object({
  discover: zFlag.optional(),
  followed: zFlag.optional(),
  q: z.string().trim().max(100).optional(),
  ...paginationQuery,
});
/** create_post: content or media, on a page. */
export const newPagePostBody = z.object({
  page_id: zId,
  content: zText(MAX_PAGE_POST_LENGTH).nullish(),
  media: z.string().max(512).nullish(),
  media_type: z.enum(['image', 'video']).nullish(),
});
export const pagePostEditBody = z.object({ post_id: zId, content: zText(MAX_PAGE_POST_LENGTH) });
export const pageReactBody = z.object({ post_id: zId, type: z.enum(REACTION_TYPES).default('like') });
export const pageCommentBody = z.object({ post_id: zId, content: zText(MAX_PAGE_COMMENT_LENGTH) });
export const pageCommentEditBody = z.object({ comment_id: zId, content: zText(MAX_PAGE_COMMENT_LENGTH) });
export const pageTeamMemberBody = z.object({ page_id: zId, username: zText(64), role: z.enum(PAGE_ROLES).default('editor') });
export const pageTeamRoleBody = z.object({ page_id: zId, user_id: zId, role: z.enum(PAGE_ROLES) });
const confirmation = z.object({ message: z.string() });
const listResponse = z.object({ data: z.array(PageListItem), meta: PageMetaWire });
const followResponse = z.object({ message: z.string(), page_id: zWireId, is_followed: z.boolean(), followers_count: zCount });
const teamResponse = z.object({ message: z.string(), user_id: zWireId, role: z.enum(PAGE_ROLES) });

/** pages.php (spec "Pages", contract §22): reads by query and `path`, writes by an `action` in the body. */
export function pagesScript(pages: PageService, posts: PagePostService, p: PresenterContext): Script {
  const created = async (actor: Parameters<PageService['create']>[0], body: z.output<typeof newPageBody>) => {
    const page = await pages.create(actor, body);
    const view = await pages.visiblePage(actor, page.id);
    return { message: 'Page created', id: page.id, page_id: page.id, data: presentPageDetails(view, p) };
  };
  const createResponse = z.object({ message: z.string(), id: zWireId, page_id: zWireId, data: PageDetailsItem });
  /** Create a page: served with and without `action=create`. */
  const create = (select?: Selector) =>
    op({
      method: 'POST',
      ...(select ? { select } : {}),
      auth: 'required',
      body: newPageBody,
      summary: 'Create a page; I become its admin',
      response: createResponse,
      handle: (ctx) => created(ctx.actor, ctx.body),
    });
  /** One page of rows under `data`, with the pagination `meta`. */
  const paged = async <V, W>(
    query: { page?: number; per_page?: number },
    fetch: (req: PageRequest) => Promise<{ items: V[]; total: number }>,
    present: (v: V, p: PresenterContext) => W,
  ) => {
    const req = pageRequest(query.page, query.per_page);
    const r = await fetch(req);
    return { data: r.items.map((v) => present(v, p)), meta: pageMeta(req, r.total) };
  };
  const list = (kind: 'managed' | 'followed' | 'discover', has: string[] | undefined, summary: string): AnyOperation =>
    op({
      method: 'GET',
      select: has ? { has } : {},
      auth: 'required',
      query: pageListQuery,
      summary,
      response: listResponse,
      handle: (ctx) =>
        paged(ctx.query, (req) => pages.list(ctx.actor, kind, kind === 'discover' ? ctx.query.q || null : null, req), presentPageListItem),
    });
  const unfollow = async (actor: Parameters<PageService['unfollow']>[0], pageId: number) => {
    const r = await pages.unfollow(actor, pageId);
    return {
      message: r.removed ? 'Page unfollowed' : 'You were not following this page',
      page_id: pageId,
      is_followed: false,
      followers_count: r.followers_count,
    };
  };
  /** Unfollow by DELETE, with page_id in the body or the query. */
  const unfollowByDelete = (summary: string, select?: Selector) =>
    op({
      method: 'DELETE',
      ...(select ? { select } : {}),
      auth: 'required',
      query: z.object({ page_id: zId.optional() }),
      body: z.object({ page_id: zId.optional() }),
      summary,
      response: followResponse,
      handle: (ctx) => unfollow(ctx.actor, requiredId('page_id', ctx.body.page_id, ctx.query.page_id)),
    });
  /** A DELETE that answers only a confirmation message. */
  const removal = <B extends z.ZodObject>(
    action: string,
    rateLimit: RateLimitGroup | undefined,
    body: B,
    summary: string,
    run: (actor: Actor, body: Infer<B>) => Promise<unknown>,
    message: string,
  ) =>
    op({
      method: 'DELETE',
      select: { action },
      auth: 'required',
      ...(rateLimit ? { rateLimit } : {}),
      body,
      summary,
      response: confirmation,
      handle: async (ctx) => {
        await run(ctx.actor, ctx.body);
        return { message };
      },
    });

  return {
    name: 'pages',
    operations: [
      list('managed', undefined, 'Pages I am on the team of (page_admins), newest first'),
      list('discover', ['discover'], 'Public pages I neither follow nor run, most followed first; q filters names'),
      list('followed', ['followed'], 'Pages I follow, most recently followed first'),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Page details with my role (user_role) and whether I follow it',
        response: z.object({ data: PageDetailsItem }),
        handle: async (ctx) => ({ data: presentPageDetails(await pages.visiblePage(ctx.actor, ctx.query.id), p) }),
      }),
      op({
        method: 'GET',
        select: { path: ':id/posts' },
        auth: 'required',
        query: z.object({ id: zId, ...paginationQuery }),
        summary: 'Posts of a page, newest first',
        response: z.object({ data: z.array(PagePostItem), meta: PageMetaWire }),
        handle: (ctx) => paged(ctx.query, (req) => posts.list(ctx.actor, ctx.query.id, req), presentPagePost),
      }),
      op({
        method: 'GET',
        select: { path: ':id/comments/:post_id' },
        auth: 'required',
        query: z.object({ id: zId, post_id: zId, ...paginationQuery }),
        summary: 'Comments of a page post, oldest first',
        response: z.object({ data: z.array(PageCommentItem), meta: PageMetaWire }),
        handle: (ctx) => paged(ctx.query, (req) => posts.comments(ctx.actor, ctx.query.id, ctx.query.post_id, req), presentPageComment),
      }),
      op({
        method: 'GET',
        select: { path: ':id/followers' },
        auth: 'required',
        query: z.object({ id: zId, ...paginationQuery }),
        summary: 'Followers of a page, most recent first',
        response: z.object({ data: z.array(PageFollowerItem), meta: PageMetaWire }),
        handle: (ctx) => paged(ctx.query, (req) => pages.followers(ctx.actor, ctx.query.id, req), presentPageFollower),
      }),
      op({
        method: 'GET',
        select: { path: ':id/team' },
        auth: 'required',
        query: z.object({ id: zId, ...paginationQuery }),
        summary: 'The team of a page (page_admins): admins first',
        response: z.object({ data: z.array(PageTeamItem), meta: PageMetaWire }),
        handle: (ctx) => paged(ctx.query, (req) => pages.team(ctx.actor, ctx.query.id, req), presentPageTeamMember),
      }),
      create(),
      create({ action: 'create' }),
      op({
        method: 'POST',
        select: { action: 'update_page' },
        auth: 'required',
        body: pageUpdateBody,
        summary: 'Update a page (its admins); absent fields stay as they are',
        response: z.object({ message: z.string(), data: PageDetailsItem }),
        handle: async (ctx) => {
          const { page_id, ...input } = ctx.body;
          await pages.update(ctx.actor, page_id, input);
          return { message: 'Page updated', data: presentPageDetails(await pages.visiblePage(ctx.actor, page_id), p) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'follow' },
        auth: 'required',
        body: z.object({ page_id: zId }),
        summary: 'Follow a page (once)',
        response: followResponse,
        handle: async (ctx) => {
          const r = await pages.follow(ctx.actor, ctx.body.page_id);
          return {
            message: r.followed ? 'Page followed' : 'You already follow this page',
            page_id: ctx.body.page_id,
            is_followed: true,
            followers_count: r.followers_count,
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'unfollow' },
        auth: 'required',
        body: z.object({ page_id: zId }),
        summary: 'Stop following a page',
        response: followResponse,
        handle: (ctx) => unfollow(ctx.actor, ctx.body.page_id),
      }),
      unfollowByDelete('Stop following a page (page_id in the body or the query)', { action: 'unfollow' }),
      unfollowByDelete('Stop following a page: DELETE with page_id and no action'),
      op({
        method: 'POST',
        select: { action: 'create_post' },
        auth: 'required',
        rateLimit: 'posts',
        body: newPagePostBody,
        summary: 'Publish on a page (members of page_admins); content or media required',
        response: z.object({ message: z.string(), id: zWireId, post_id: zWireId, data: PagePostItem }),
        handle: async (ctx) => {
          const v = await posts.create(ctx.actor, ctx.body);
          return { message: 'Post published', id: v.post.id, post_id: v.post.id, data: presentPagePost(v, p) };
        },
      }),
      editOperation({
        select: { action: 'update_post' },
        rateLimit: 'posts',
        body: pagePostEditBody,
        summary: 'Edit my page post',
        item: PagePostItem,
        message: 'Post updated',
        edit: async (actor, body) => presentPagePost(await posts.update(actor, body.post_id, body.content), p),
      }),
      removal(
        'delete_post',
        'posts',
        z.object({ post_id: zId }),
        'Delete a page post (its author, the page’s admins, moderators) with its comments and reactions',
        (actor, b) => posts.delete(actor, b.post_id),
        'Post deleted',
      ),
      op({
        method: 'POST',
        select: { action: 'react' },
        auth: 'required',
        rateLimit: 'reactions',
        body: pageReactBody,
        summary: 'React to a page post; the same reaction again takes it back. Answers 200',
        response: z.object({
          message: z.string(),
          post_id: zWireId,
          like_count: zCount,
          user_reaction: z.union([z.literal(''), z.enum(REACTION_TYPES)]),
        }),
        handle: async (ctx) => {
          const r = await posts.react(ctx.actor, ctx.body.post_id, ctx.body.type);
          return {
            message: r.user_reaction ? 'Reaction saved' : 'Reaction removed',
            post_id: r.post_id,
            like_count: r.like_count,
            user_reaction: r.user_reaction ?? ('' as const),
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'comment' },
        auth: 'required',
        rateLimit: 'comments',
        body: pageCommentBody,
        summary: 'Comment on a page post',
        response: z.object({ message: z.string(), id: zWireId, comment_id: zWireId, data: PageCommentItem }),
        handle: async (ctx) => {
          const v = await posts.comment(ctx.actor, ctx.body.post_id, ctx.body.content);
          return { message: 'Comment added', id: v.comment.id, comment_id: v.comment.id, data: presentPageComment(v, p) };
        },
      }),
      editOperation({
        select: { action: 'update_comment' },
        rateLimit: 'comments',
        body: pageCommentEditBody,
        summary: 'Edit my comment on a page post',
        item: PageCommentItem,
        message: 'Comment updated',
        edit: async (actor, body) => presentPageComment(await posts.updateComment(actor, body.comment_id, body.content), p),
      }),
      removal(
        'delete_comment',
        'comments',
        z.object({ comment_id: zId }),
        'Delete a comment on a page post (its author, the page’s team, moderators)',
        (actor, b) => posts.deleteComment(actor, b.comment_id),
        'Comment deleted',
      ),
      op({
        method: 'POST',
        select: { action: 'add_team_member' },
        auth: 'required',
        body: pageTeamMemberBody,
        summary: 'Add an account to the team by username (admins)',
        response: teamResponse,
        handle: async (ctx) => ({
          message: 'Team member added',
          ...(await pages.addTeamMember(ctx.actor, ctx.body.page_id, ctx.body.username, ctx.body.role)),
        }),
      }),
      op({
        method: 'POST',
        select: { action: 'update_team_role' },
        auth: 'required',
        body: pageTeamRoleBody,
        summary: 'Change a team member’s role (admins); a page keeps one admin',
        response: teamResponse,
        handle: async (ctx) => ({
          message: 'Role updated',
          ...(await pages.updateTeamRole(ctx.actor, ctx.body.page_id, ctx.body.user_id, ctx.body.role)),
        }),
      }),
      removal(
        'remove_team_member',
        undefined,
        z.object({ page_id: zId, user_id: zId }),
        'Remove a team member (admins; anyone may leave); a page keeps one admin',
        (actor, b) => pages.removeTeamMember(actor, b.page_id, b.user_id),
        'Team member removed',
      ),
      op({
        method: 'DELETE',
        select: { action: 'remove_follower' },
        auth: 'required',
        body: z.object({ page_id: zId, user_id: zId }),
        summary: 'Remove a follower from a page (admins)',
        response: z.object({ message: z.string(), followers_count: zCount }),
        handle: async (ctx) => ({
          message: 'Follower removed',
          followers_count: (await pages.removeFollower(ctx.actor, ctx.body.page_id, ctx.body.user_id)).followers_count,
        }),
      }),
    ],
  };
}

/** An id the body or the query may carry; both must then name the same row. */
function requiredId(field: string, fromBody: number | undefined, fromQuery: number | undefined): number {
  if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery)
    throw Invalid.field(field, 'is given twice, with different values');
  const value = fromBody ?? fromQuery;
  if (value === undefined) throw Invalid.field(field, 'is required');
  return value;
}
