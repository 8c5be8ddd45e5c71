import type { CommentRecord, CommentView, ListPage, PostView, StoryView } from '@plaza/domain';
import type { PresenterContext } from './context.js';

/** Bare uploaded names live under uploads/posts/; values that already carry a path stay as they are. */
export function postMediaPath(name: string): string {
  return name.includes('/') ? name : `uploads/posts/${name}`;
}

/** A post item exactly as contract §35.1 reads it. */
export function presentPost(v: PostView, p: PresenterContext) {
  const a = v.author;
  return {
    id: v.post.id,
    user_id: v.post.user_id,
    username: a.username,
    avatar: a.avatar ?? 'default.svg',
    militant_badge: a.militant_badge,
    is_militant_technician: a.is_technician || a.is_admin,
    is_moderator: a.is_moderator || a.is_admin,
    content: v.post.content,
    media: v.post.media.map(postMediaPath),
    media_type: v.post.media_type,
    likes_count: v.post.likes_count,
    comments_count: v.post.comments_count,
    shares_count: v.post.shares_count,
    is_liked: v.is_liked,
    reaction_type: v.reaction_type,
    is_bookmarked: v.is_bookmarked,
    tags: v.post.tags,
    type: 'post' as const,
    group_id: null,
    created_at: p.formatTime(v.post.created_at),
    updated_at: p.formatTime(v.post.updated_at),
    feed_date: p.formatTime(v.feed_date),
    shared_by_username: v.shared_by_username,
  };
}

export function presentPagination(page: ListPage<unknown>) {
  return { current_page: page.page, per_page: page.per_page, has_more: page.has_more };
}

/** Lists of posts under both `data.posts` and top-level `posts`, as every client reader finds them. */
export function presentPostList(page: ListPage<PostView>, p: PresenterContext) {
  const posts = page.items.map((v) => presentPost(v, p));
  return { data: { posts, pagination: presentPagination(page) }, posts };
}

export function presentCommentRecord(c: CommentRecord, p: PresenterContext) {
  return {
    id: c.id,
    post_id: c.post_id,
    user_id: c.user_id,
    parent_id: c.parent_id,
    content: c.content,
    reactions_count: c.reactions_count,
    created_at: p.formatTime(c.created_at),
    updated_at: p.formatTime(c.updated_at),
  };
}

/** A comment per contract §35.2, with its replies nested. */
export function presentComment(v: CommentView, p: PresenterContext): Record<string, unknown> {
  const a = v.author;
  return {
    ...presentCommentRecord(v.comment, p),
    username: a.username,
    avatar: a.avatar ?? 'default.svg',
    militant_badge: a.militant_badge,
    is_militant_technician: a.is_technician || a.is_admin,
    is_moderator: a.is_moderator || a.is_admin,
    has_reacted: v.has_reacted,
    replies: v.replies.map((r) => presentComment(r, p)),
  };
}

/** A story per contract §24: `media` is the bare file name. */
export function presentStory(v: StoryView, p: PresenterContext) {
  return {
    id: v.story.id,
    user_id: v.story.user_id,
    username: v.author.username,
    avatar: v.author.avatar ?? 'default.svg',
    media: v.story.media,
    text: v.story.text,
    created_at: p.formatTime(v.story.created_at),
    expires_at: p.formatTime(v.story.expires_at),
    is_viewed: false,
  };
}
