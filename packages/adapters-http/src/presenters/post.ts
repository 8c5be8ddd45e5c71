import type { Timestamp } from '@plaza/domain';
import {
  type AuthorInfo,
  type CommentRecord,
  type CommentView,
  type ListPage,
  type PostRecord,
  type PostView,
  REACTION_TYPES,
  type ReactionType,
  type StoryView,
} from '@plaza/domain/content';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { presentUserSummary, UserSummary, zAvatar } from './user.js';
import { avatarOf, presentPagination, wireTime, zCount, zTimestamp, zWireId } from './wire.js';

/** Bare uploaded names live under uploads/posts/; values that already carry a path stay as they are. */
export function postMediaPath(name: string): string {
  return name.includes('/') ? name : `uploads/posts/${name}`;
}

export const MEDIA_TYPES = ['image', 'video'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

/** The stored media type, or (for a value outside the vocabulary) the one the client infers from the extension. */
export function mediaTypeOf(stored: string | null, media: string[]): MediaType | null {
  if (stored === 'image' || stored === 'video') return stored;
  if (media.length === 0) return null;
  return /\.(mp4|webm|mov|m4v|avi|mkv)$/i.test(media[0]) ? 'video' : 'image';
}

function isReactionType(s: string): s is ReactionType {
  return (REACTION_TYPES as readonly string[]).includes(s);
}

/** The author block that posts and comments carry, with the flags the clients show. */
export const AuthorFields = {
  username: z.string(),
  avatar: zAvatar,
  militant_badge: z.string().nullable(),
  is_militant_technician: z.boolean(),
  is_moderator: z.boolean(),
};

export function presentAuthorFields(a: AuthorInfo, p: PresenterContext) {
  const roles = p.roles(a);
  return {
    username: a.username,
    avatar: avatarOf(a),
    militant_badge: a.militant_badge,
    is_militant_technician: roles.technician,
    is_moderator: roles.moderator,
  };
}

/** A post item exactly as contract §35.1 reads it. */
export const PostItem = z.object({
  id: zWireId,
  user_id: zWireId,
  ...AuthorFields,
  content: z.string(),
  media: z.array(z.string().min(1)),
  media_type: z.enum(MEDIA_TYPES).nullable(),
  likes_count: zCount,
  comments_count: zCount,
  shares_count: zCount,
  is_liked: z.boolean(),
  reaction_type: z.enum(REACTION_TYPES).nullable(),
  is_bookmarked: z.boolean(),
  tags: z.array(z.string()),
  /** A wall post's item; a share of a group's or page's post is `WallListItem` (wall.ts). */
  type: z.literal('post'),
  group_id: z.null(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
  feed_date: zTimestamp,
  shared_by_username: z.string().nullable(),
});

/** What every surface's post gives its item: the stored post, its author and the reader's reaction. */
interface PostItemSource {
  post: Pick<
    PostRecord,
    'id' | 'user_id' | 'content' | 'media' | 'media_type' | 'likes_count' | 'comments_count' | 'tags' | 'created_at' | 'updated_at'
  >;
  author: AuthorInfo;
  is_liked: boolean;
  reaction_type: ReactionType | null;
}

/** The fields in which one surface's post items differ from another's. */
interface PostItemSurface<T extends string, G extends number | null, S extends string | null> {
  shares_count: number;
  is_bookmarked: boolean;
  type: T;
  group_id: G;
  feed_date: Timestamp;
  shared_by_username: S;
}

/** A post item of any surface (posts.php, group_posts.php), in PostItem's key order. */
export function presentPostItem<T extends string, G extends number | null, S extends string | null>(
  v: PostItemSource,
  surface: PostItemSurface<T, G, S>,
  p: PresenterContext,
): Omit<z.input<typeof PostItem>, 'type' | 'group_id' | 'shared_by_username'> & { type: T; group_id: G; shared_by_username: S } {
  return {
    id: v.post.id,
    user_id: v.post.user_id,
    ...presentAuthorFields(v.author, p),
    content: v.post.content,
    media: v.post.media.map(postMediaPath),
    media_type: mediaTypeOf(v.post.media_type, v.post.media),
    likes_count: v.post.likes_count,
    comments_count: v.post.comments_count,
    shares_count: surface.shares_count,
    is_liked: v.is_liked,
    reaction_type: v.reaction_type,
    is_bookmarked: surface.is_bookmarked,
    tags: v.post.tags,
    type: surface.type,
    group_id: surface.group_id,
    created_at: wireTime(p, v.post.created_at),
    updated_at: p.formatTime(v.post.updated_at),
    feed_date: wireTime(p, surface.feed_date),
    shared_by_username: surface.shared_by_username,
  };
}

export function presentPost(v: PostView, p: PresenterContext): z.input<typeof PostItem> {
  const surface = {
    shares_count: v.post.shares_count,
    is_bookmarked: v.is_bookmarked,
    type: 'post' as const,
    group_id: null,
    feed_date: v.feed_date,
    shared_by_username: v.shared_by_username,
  };
  return presentPostItem(v, surface, p);
}

/** The stored fields of a comment, as an edit answers them. */
export const CommentRecordItem = z.object({
  id: zWireId,
  post_id: zWireId,
  /** 0 for a reply from another server: never anyone's id, so no client offers to edit it (docs/decisions/0205). */
  user_id: z.union([zWireId, z.literal(0)]),
  parent_id: zWireId.nullable(),
  content: z.string(),
  reactions_count: zCount,
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});

export function presentCommentRecord(c: CommentRecord, p: PresenterContext): z.input<typeof CommentRecordItem> {
  return {
    id: c.id,
    post_id: c.post_id,
    user_id: c.user_id,
    parent_id: c.parent_id,
    content: c.content,
    reactions_count: c.reactions_count,
    created_at: wireTime(p, c.created_at),
    updated_at: p.formatTime(c.updated_at),
  };
}

/** A comment per contract §35.2, with its replies nested (recursively, same shape). */
export const CommentItem = CommentRecordItem.extend(AuthorFields).extend({
  has_reacted: z.boolean(),
  /** Present on replies from other servers only: the remote author (additive to contract §35.2). */
  is_remote: z.literal(true).optional(),
  handle: z.string().optional(),
  display_name: z.string().optional(),
  actor_url: z.string().optional(),
  get replies() {
    return z.array(CommentItem);
  },
});

export type CommentItemWire = z.input<typeof CommentItem>;

export function presentComment(v: CommentView, p: PresenterContext): CommentItemWire {
  return {
    ...presentCommentRecord(v.comment, p),
    ...presentAuthorFields(v.author, p),
    has_reacted: v.has_reacted,
    ...(v.author.remote
      ? {
          is_remote: true as const,
          handle: v.author.remote.handle,
          display_name: v.author.remote.display_name,
          actor_url: v.author.remote.actor_url,
        }
      : {}),
    replies: v.replies.map((r) => presentComment(r, p)),
  };
}

/** A page of root comments with their replies, under both `data` and `comments` (comments.php, group_comments.php). */
export function presentCommentList(page: ListPage<CommentView>, p: PresenterContext) {
  const data = page.items.map((c) => presentComment(c, p));
  return { data, comments: data, pagination: presentPagination(page) };
}

/**
 * A comment just written by its author (POST comments.php): the stored fields with the author's name,
 * no reaction and no replies yet. The client does not read it (§10.1: it re-fetches), so the author's
 * avatar and badges, which the domain does not return on creation, are left out.
 */
export const NewCommentItem = z.object({
  ...CommentRecordItem.shape,
  username: z.string(),
  has_reacted: z.literal(false),
  replies: z.tuple([]),
});

export function presentNewComment(c: CommentRecord, author: { username: string }, p: PresenterContext): z.input<typeof NewCommentItem> {
  return { ...presentCommentRecord(c, p), username: author.username, has_reacted: false, replies: [] };
}

/** The answer to a new comment or reply, on a post or a group post. */
export const CommentAdded = z.object({ message: z.string(), comment_id: zWireId, id: zWireId, data: NewCommentItem });

export function presentCommentAdded(c: CommentRecord, author: { username: string }, p: PresenterContext): z.input<typeof CommentAdded> {
  return { message: 'Comment added', comment_id: c.id, id: c.id, data: presentNewComment(c, author, p) };
}

/** One reaction of comment_reactions.php GET: who reacted, how and when. */
export const CommentReactionItem = z.object({
  /** 0 for a remote actor's reaction (docs/decisions/0241): nobody's id, as a remote comment's author. */
  user_id: z.union([zWireId, z.literal(0)]),
  username: z.string(),
  reaction_type: z.enum(REACTION_TYPES),
  created_at: zTimestamp,
  user: UserSummary.extend({ id: z.union([zWireId, z.literal(0)]) }),
  /** Present on reactions from other servers only (additive, as on remote comments). */
  is_remote: z.literal(true).optional(),
  handle: z.string().optional(),
  actor_url: z.string().optional(),
});

export function presentCommentReaction(
  r: {
    user_id: number;
    reaction_type: string;
    created_at: string;
    author: Pick<AuthorInfo, 'id' | 'username' | 'avatar' | 'remote'>;
  },
  p: PresenterContext,
): z.input<typeof CommentReactionItem> {
  return {
    user_id: r.user_id,
    username: r.author.username,
    // Stored values come from the validated vocabulary; anything else is shown as the default reaction.
    reaction_type: isReactionType(r.reaction_type) ? r.reaction_type : 'like',
    created_at: wireTime(p, r.created_at),
    user: presentUserSummary(r.author),
    ...(r.author.remote ? { is_remote: true as const, handle: r.author.remote.handle, actor_url: r.author.remote.actor_url } : {}),
  };
}

/** Reaction counts of a post by type (reactions.php GET); types without a reaction are absent. */
export const ReactionCounts = z.partialRecord(z.enum(REACTION_TYPES), z.number().int().positive());

export function presentReactionCounts(counts: Record<string, number>): z.input<typeof ReactionCounts> {
  const out: z.input<typeof ReactionCounts> = {};
  for (const type of REACTION_TYPES) if (counts[type]) out[type] = counts[type];
  return out;
}

/** A story per contract §24: `media` is the bare file name (resolved by the client under uploads/stories/). */
export const StoryItem = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  media: z.string().min(1),
  text: z.string(),
  created_at: zTimestamp,
  expires_at: zTimestamp,
  is_viewed: z.boolean(),
});

export function presentStory(v: StoryView, p: PresenterContext): z.input<typeof StoryItem> {
  return {
    id: v.story.id,
    user_id: v.story.user_id,
    username: v.author.username,
    avatar: avatarOf(v.author),
    media: v.story.media,
    text: v.story.text,
    created_at: wireTime(p, v.story.created_at),
    expires_at: wireTime(p, v.story.expires_at),
    is_viewed: false,
  };
}
