import type { UserRepository } from '../accounts/ports.js';
import type { NotificationService } from '../notifications/notification-service.js';
import type { Actor } from '../shared/actor.js';
import { canModerate } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { FollowRepository } from '../social/ports.js';
import type { ListPage, PostRecord, PostView } from './model.js';
import { extractHashtags, extractMentions, normalizeTags, POST_MAX_LENGTH } from './model.js';
import type { PostRepository } from './ports.js';

export interface CreatePostInput {
  content?: string;
  media?: string[];
  media_type?: string | null;
  tags?: string[];
}

const MEDIA_NAME = /^[A-Za-z0-9_.-]{1,200}$/;

/** Notifies every existing user mentioned as `@name` in a text, except the author. */
export async function notifyMentions(
  users: UserRepository,
  notifications: NotificationService,
  actor: Actor,
  text: string,
  ref: { post_id: number; comment_id?: number },
): Promise<void> {
  for (const name of extractMentions(text)) {
    const user = await users.findByLogin(name);
    if (!user || user.id === actor.userId) continue;
    await notifications.raise(
      { user_id: user.id, from_user_id: actor.userId, type: 'mention', post_id: ref.post_id, comment_id: ref.comment_id ?? null, content: `${actor.username} mentioned you` },
      { title: 'Mention', body: `${actor.username} mentioned you` },
    );
  }
}

export function listPage<T>(rows: T[], req: { page: number; perPage: number }): ListPage<T> {
  return { items: rows.slice(0, req.perPage), page: req.page, per_page: req.perPage, has_more: rows.length > req.perPage };
}

export class PostService {
  constructor(
    private readonly posts: PostRepository,
    private readonly follows: FollowRepository,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async feed(actor: Actor, kind: 'following' | 'global', page?: number, perPage?: number): Promise<ListPage<PostView>> {
    const req = pageRequest(page, perPage);
    const rows = kind === 'global' ? await this.posts.global(actor.userId, req) : await this.posts.feed(actor.userId, req);
    const p = listPage(rows, req);
    return { ...p, items: await this.posts.views(p.items, actor.userId) };
  }

  async wall(actor: Actor, userId: number, page?: number, perPage?: number): Promise<ListPage<PostView>> {
    const req = pageRequest(page, perPage);
    const author = (await this.posts.authors([userId])).get(userId);
    if (!author) throw new NotFound('User not found', 'user_not_found');
    if (!(await this.canSee(actor, userId, author.is_private))) return { items: [], page: req.page, per_page: req.perPage, has_more: false };
    const p = listPage(await this.posts.wall(userId, actor.userId, req), req);
    return { ...p, items: await this.posts.views(p.items, actor.userId) };
  }

  async bookmarks(actor: Actor, page?: number, perPage?: number): Promise<ListPage<PostView>> {
    const req = pageRequest(page, perPage);
    const p = listPage(await this.posts.bookmarked(actor.userId, req), req);
    return { ...p, items: await this.posts.views(p.items, actor.userId) };
  }

  async view(actor: Actor, postId: number): Promise<PostView> {
    const post = await this.visiblePost(actor, postId);
    const [view] = await this.posts.views([{ post_id: post.id, shared_by: null, feed_date: post.created_at }], actor.userId);
    if (!view) throw new NotFound('Post not found', 'post_not_found');
    return view;
  }

  /** The post if it exists and the actor may see it; NotFound otherwise (a private post is not revealed). */
  async visiblePost(actor: Actor, postId: number): Promise<PostRecord> {
    const post = await this.posts.findById(postId);
    if (!post) throw new NotFound('Post not found', 'post_not_found');
    const author = (await this.posts.authors([post.user_id])).get(post.user_id);
    if (!author || !(await this.canSee(actor, post.user_id, author.is_private))) throw new NotFound('Post not found', 'post_not_found');
    return post;
  }

  async create(actor: Actor, input: CreatePostInput): Promise<PostView> {
    const content = (input.content ?? '').trim();
    const media = (input.media ?? []).map((m) => m.trim()).filter((m) => m.length > 0).map((m) => m.split('/').pop()!);
    if (!content && media.length === 0) throw Invalid.field('content', 'a post needs content or media', 'empty_post');
    if (content.length > POST_MAX_LENGTH) throw Invalid.field('content', `must be at most ${POST_MAX_LENGTH} characters`);
    if (media.length > 10) throw Invalid.field('media', 'at most 10 files');
    for (const m of media) if (!MEDIA_NAME.test(m)) throw Invalid.field('media', 'must be names of uploaded files');
    const mediaType = media.length ? (input.media_type ?? (/\.(mp4|webm|mov|m4v|avi|mkv)$/i.test(media[0]) ? 'video' : 'image')) : null;
    if (mediaType !== null && mediaType !== 'image' && mediaType !== 'video') throw Invalid.field('media_type', 'must be image or video');
    const tags = normalizeTags([...(input.tags ?? []), ...extractHashtags(content)]);
    // The post and the notifications of the users it mentions are stored together.
    const post = await this.uow.run(async () => {
      const created = await this.posts.create({
        user_id: actor.userId,
        content,
        media,
        media_type: mediaType,
        tags,
        created_at: toTimestamp(this.clock.now()),
      });
      await notifyMentions(this.users, this.notifications, actor, content, { post_id: created.id });
      return created;
    });
    const author = (await this.posts.authors([actor.userId])).get(actor.userId);
    if (!author) throw new NotFound('User not found', 'user_not_found');
    // A new post has no reactions or bookmarks yet: no need to read them back.
    return { post, author, is_liked: false, reaction_type: null, is_bookmarked: false, feed_date: post.created_at, shared_by_username: null };
  }

  async edit(actor: Actor, postId: number, input: { content: string; tags?: string[] }): Promise<PostView> {
    const post = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId) throw new Forbidden('Only the author can edit this post');
    const content = input.content.trim();
    if (!content && post.media.length === 0) throw Invalid.field('content', 'a post needs content or media', 'empty_post');
    if (content.length > POST_MAX_LENGTH) throw Invalid.field('content', `must be at most ${POST_MAX_LENGTH} characters`);
    const tags = normalizeTags([...(input.tags ?? []), ...extractHashtags(content)]);
    await this.posts.update(postId, { content, tags, updated_at: toTimestamp(this.clock.now()) });
    return this.view(actor, postId);
  }

  async delete(actor: Actor, postId: number): Promise<void> {
    const post = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId && !canModerate(actor)) throw new Forbidden('Only the author or a moderator can delete this post');
    await this.posts.delete(postId);
  }

  private async canSee(actor: Actor, authorId: number, isPrivate: boolean): Promise<boolean> {
    if (!isPrivate || authorId === actor.userId || canModerate(actor)) return true;
    return this.follows.isFollowing(actor.userId, authorId);
  }
}
