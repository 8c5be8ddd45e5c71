import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { ReactionType } from '../content/model.js';
import { VIDEO_EXTENSIONS } from '../media/reference.js';
import type { MediaReferences } from '../media/references.js';
import type { ReportedSurface } from '../moderation/reportable-posts.js';
import type { Actor } from '../shared/actor.js';
import { canModerate } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { putReaction, removeReaction, type ReactionChange, type ReactionSlots } from '../shared/reaction-rule.js';
import { MAX_PAGE_COMMENT_LENGTH, MAX_PAGE_POST_LENGTH, type PageCommentRecord, type PagePostRecord } from './model.js';
import type { PageService, PageView } from './page-service.js';
import type { PagePostRepository, Paged } from './ports.js';
import { pageAllows } from './rules.js';

export interface PagePostView {
  post: PagePostRecord;
  author: UserRecord | null;
  user_reaction: ReactionType | null;
}

export interface PageCommentView {
  comment: PageCommentRecord;
  author: UserRecord;
  has_reacted: boolean;
}

export interface PagePostInput {
  page_id: number;
  content?: string | null;
  media?: string | null;
  media_type?: string | null;
}

/**
 * Posts of pages, their reactions and their comments. Every read and write goes through the page's
 * visibility (`PageService.visiblePage`): a private page's posts are a 404 to everyone outside its team.
 */
export class PagePostService {
  constructor(
    private readonly pages: PageService,
    private readonly posts: PagePostRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly media: MediaReferences,
  ) {}

  async list(actor: Actor, pageId: number, req: PageRequest): Promise<Paged<PagePostView>> {
    await this.pages.visiblePage(actor, pageId);
    const found = await this.posts.list(pageId, req);
    const ids = found.items.map((p) => p.id);
    const [reactions, authors] = await Promise.all([
      this.posts.reactionsOf(actor.userId, ids),
      this.usersById(found.items.map((p) => p.user_id)),
    ]);
    return {
      total: found.total,
      items: found.items.map((post) => ({
        post,
        author: authors.get(post.user_id) ?? null,
        user_reaction: reactions.get(post.id) ?? null,
      })),
    };
  }

  /** Spec "Page post (create)" and Errors 3–4: content or media, by a member of page_admins. */
  async create(actor: Actor, input: PagePostInput): Promise<PagePostView> {
    await this.pages.pageAllowing(actor, input.page_id, 'publish', 'Only the page’s team can publish on it');
    const content = (input.content ?? '').trim();
    const rawMedia = (input.media ?? '').trim();
    if (!content && !rawMedia)
      throw new Invalid('A page post needs content or media', 'empty_post', [
        { field: 'content', problem: 'content or media is required' },
      ]);
    if (content.length > MAX_PAGE_POST_LENGTH) throw Invalid.field('content', `must be at most ${MAX_PAGE_POST_LENGTH} characters`);
    let media: string | null = null;
    let mediaType: string | null = null;
    if (rawMedia) {
      const ref = await this.media.require(this.pages.teamOf(actor, input.page_id), 'media', rawMedia, ['posts']);
      media = ref.name;
      const ext = ref.name.split('.').pop()!.toLowerCase();
      mediaType = input.media_type?.trim() || ((VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? 'video' : 'image');
    }
    const post = await this.posts.create({
      page_id: input.page_id,
      user_id: actor.userId,
      content,
      media,
      media_type: mediaType,
      created_at: toTimestamp(this.clock.now()),
    });
    return { post, author: await this.users.findById(actor.userId), user_reaction: null };
  }

  /** Its author edits a post, while still on the team. */
  async update(actor: Actor, postId: number, content: string): Promise<PagePostView> {
    const { post, page } = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId || !pageAllows(page.role, 'publish'))
      throw new Forbidden('Only the post’s author on the page’s team can edit it', 'not_post_author');
    const text = content.trim();
    if (!text && !post.media)
      throw new Invalid('A page post needs content or media', 'empty_post', [
        { field: 'content', problem: 'content or media is required' },
      ]);
    if (text.length > MAX_PAGE_POST_LENGTH) throw Invalid.field('content', `must be at most ${MAX_PAGE_POST_LENGTH} characters`);
    const at = toTimestamp(this.clock.now());
    await this.posts.update(postId, text, at);
    const reactions = await this.posts.reactionsOf(actor.userId, [postId]);
    return {
      post: { ...post, content: text, updated_at: at },
      author: await this.users.findById(actor.userId),
      user_reaction: reactions.get(postId) ?? null,
    };
  }

  /**
   * Page posts as reports.php names them (`post_type: "page"`): the reporter must see the post, and the
   * moderators remove it as page-post deletion allows them to (docs/decisions/0035). A private page is
   * its team's alone, moderators included: a report from inside the team is its admins' to act on.
   */
  readonly reported: ReportedSurface = {
    visiblePost: async (actor, postId) => (await this.visiblePost(actor, postId)).post,
    removeReported: (moderator, postId) => this.delete(moderator, postId),
  };

  /** The author, the page's admins and site moderators; the post goes with its comments and reactions. */
  async delete(actor: Actor, postId: number): Promise<void> {
    const { post, page } = await this.visiblePost(actor, postId);
    const own = post.user_id === actor.userId && pageAllows(page.role, 'publish');
    if (!own && !pageAllows(page.role, 'deleteAnyPost') && !canModerate(actor))
      throw new Forbidden('Only the author, the page’s admins or a moderator can delete this post', 'not_post_author');
    await this.posts.delete(postId);
  }

  /**
   * A page post's reactions, as the one reaction rule (shared/reaction-rule.ts) puts and removes them;
   * call under the post's lock (`like_count` counts reacting users, read then written).
   */
  private readonly slots: ReactionSlots<number, ReactionType> = {
    put: async (postId, userId, type, at): Promise<ReactionChange> => {
      const current = (await this.posts.reactionsOf(userId, [postId])).get(postId) ?? null;
      if (current === type) return 'unchanged';
      await this.posts.setReaction(postId, userId, type, at);
      return current === null ? 'added' : 'changed';
    },
    remove: async (postId, userId) => {
      if (!(await this.posts.reactionsOf(userId, [postId])).has(postId)) return false;
      await this.posts.setReaction(postId, userId, null, toTimestamp(this.clock.now()));
      return true;
    },
  };

  /**
   * pages.php `react`: the one reaction rule, with the page's wire difference on top (docs/decisions/0036,
   * 0120): the app sends the reaction it shows again to take it back, so the same type again removes it.
   * A page post's reactions tell no one (a page's notices have nowhere the app opens them).
   */
  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
  ): Promise<{ post_id: number; like_count: number; user_reaction: ReactionType | null }> {
    await this.visiblePost(actor, postId);
    return this.uow.run(async () => {
      await this.posts.lock(postId);
      const current = (await this.posts.reactionsOf(actor.userId, [postId])).get(postId) ?? null;
      const takesBack = current === type;
      if (takesBack) await removeReaction(this.slots, postId, actor.userId);
      else await putReaction(this.slots, postId, actor.userId, type, toTimestamp(this.clock.now()));
      const after = await this.posts.findById(postId);
      return { post_id: postId, like_count: after?.like_count ?? 0, user_reaction: takesBack ? null : type };
    });
  }

  async comments(actor: Actor, pageId: number, postId: number, req: PageRequest): Promise<Paged<PageCommentView>> {
    const { post } = await this.visiblePost(actor, postId);
    if (post.page_id !== pageId) throw new NotFound('Post not found', 'post_not_found');
    const found = await this.posts.comments(postId, req);
    const [authors, reacted] = await Promise.all([
      this.usersById(found.items.map((c) => c.user_id)),
      this.posts.commentsReactedBy(
        actor.userId,
        found.items.map((c) => c.id),
      ),
    ]);
    return {
      total: found.total,
      items: found.items.flatMap((comment) => {
        const author = authors.get(comment.user_id);
        return author ? [{ comment, author, has_reacted: reacted.has(comment.id) }] : [];
      }),
    };
  }

  /** Anyone who sees the page comments on its posts. */
  async comment(actor: Actor, postId: number, content: string): Promise<PageCommentView> {
    await this.visiblePost(actor, postId);
    const text = checkedComment(content);
    const comment = await this.posts.createComment({
      post_id: postId,
      user_id: actor.userId,
      content: text,
      created_at: toTimestamp(this.clock.now()),
    });
    return { comment, author: (await this.users.findById(actor.userId))!, has_reacted: false };
  }

  async updateComment(actor: Actor, commentId: number, content: string): Promise<PageCommentView> {
    const { comment } = await this.visibleComment(actor, commentId);
    if (comment.user_id !== actor.userId) throw new Forbidden('Only the author can edit this comment', 'not_comment_author');
    const text = checkedComment(content);
    const at = toTimestamp(this.clock.now());
    await this.posts.updateComment(commentId, text, at);
    const reacted = await this.posts.commentsReactedBy(actor.userId, [commentId]);
    return {
      comment: { ...comment, content: text, updated_at: at },
      author: (await this.users.findById(actor.userId))!,
      has_reacted: reacted.has(commentId),
    };
  }

  /** The author, the page's team and site moderators. One's own comment goes even when the page is hidden now. */
  async deleteComment(actor: Actor, commentId: number): Promise<void> {
    const comment = await this.posts.findComment(commentId);
    if (!comment) throw new NotFound('Comment not found', 'comment_not_found');
    if (comment.user_id !== actor.userId) {
      const { page } = await this.visibleComment(actor, commentId);
      if (!pageAllows(page.role, 'deleteAnyComment') && !canModerate(actor))
        throw new Forbidden('Only the author, the page’s team or a moderator can delete this comment', 'not_comment_author');
    }
    await this.posts.deleteComment(commentId);
  }

  /** A comment of a post the caller may see (404 otherwise), for comment_reactions.php too. */
  async visibleComment(actor: Actor, commentId: number): Promise<{ comment: PageCommentRecord; post: PagePostRecord; page: PageView }> {
    const comment = await this.posts.findComment(commentId);
    if (!comment) throw new NotFound('Comment not found', 'comment_not_found');
    try {
      return { comment, ...(await this.visiblePost(actor, comment.post_id)) };
    } catch (e) {
      if (e instanceof NotFound) throw new NotFound('Comment not found', 'comment_not_found');
      throw e;
    }
  }

  async visiblePost(actor: Actor, postId: number): Promise<{ post: PagePostRecord; page: PageView }> {
    const post = await this.posts.findById(postId);
    if (!post) throw new NotFound('Post not found', 'post_not_found');
    try {
      return { post, page: await this.pages.visiblePage(actor, post.page_id) };
    } catch (e) {
      if (e instanceof NotFound) throw new NotFound('Post not found', 'post_not_found');
      throw e;
    }
  }

  private async usersById(ids: number[]): Promise<Map<number, UserRecord>> {
    const found = await this.users.findByIds([...new Set(ids)]);
    return new Map(found.map((u) => [u.id, u]));
  }
}

function checkedComment(content: string): string {
  const text = content.trim();
  if (!text) throw Invalid.field('content', 'must not be empty');
  if (text.length > MAX_PAGE_COMMENT_LENGTH) throw Invalid.field('content', `must be at most ${MAX_PAGE_COMMENT_LENGTH} characters`);
  return text;
}
