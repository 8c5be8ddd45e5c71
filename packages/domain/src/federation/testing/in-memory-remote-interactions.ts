import type { ReactionType } from '../../content/model.js';
import type { InMemoryContentStore } from '../../content/testing/in-memory-content.js';
import type { Timestamp } from '../../shared/time.js';
import type { RemoteCommentInput, RemoteInteractionRepository } from '../inbound-ports.js';
import type {
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemotePostRepository,
} from './in-memory-federation.js';

/** Remote replies, reactions and boosts over the in-memory content store, as the SQL adapter keeps them in the content tables. */
export class InMemoryRemoteInteractionRepository implements RemoteInteractionRepository {
  /** Note id → comment id (comments.remote_object_id). */
  private readonly notes = new Map<string, number>();
  private readonly reactions: {
    post_id: number;
    actor_url: string;
    activity_id: string;
    reaction_type: ReactionType;
    created_at: Timestamp;
  }[] = [];
  private readonly commentReactionRows: {
    comment_id: number;
    actor_url: string;
    activity_id: string;
    reaction_type: ReactionType;
    created_at: Timestamp;
  }[] = [];
  private readonly boosts: { post_id: number; actor_url: string; activity_id: string; created_at: Timestamp }[] = [];

  constructor(
    private readonly content: InMemoryContentStore,
    private readonly actors: InMemoryRemoteActorRepository,
    private readonly follows: InMemoryRemoteFollowRepository,
    private readonly posts: InMemoryRemotePostRepository,
  ) {}

  async addComment(c: RemoteCommentInput) {
    const known = this.notes.get(c.object_id);
    if (known !== undefined && this.content.comments.has(known)) return null;
    const id = this.content.nextId++;
    this.content.comments.set(id, {
      id,
      post_id: c.post_id,
      user_id: 0,
      remote_actor_url: c.actor_url,
      parent_id: c.parent_id,
      content: c.content,
      reactions_count: 0,
      created_at: c.created_at,
      updated_at: null,
    });
    this.notes.set(c.object_id, id);
    const post = this.content.posts.get(c.post_id);
    if (post) post.comments_count += 1;
    return id;
  }

  async findComment(objectId: string) {
    const id = this.notes.get(objectId);
    const c = id === undefined ? undefined : this.content.comments.get(id);
    return c?.remote_actor_url ? { id: c.id, post_id: c.post_id, actor_url: c.remote_actor_url } : null;
  }

  async editComment(objectId: string, actorUrl: string, content: string, at: Timestamp) {
    const id = this.notes.get(objectId);
    const c = id === undefined ? undefined : this.content.comments.get(id);
    if (!c || c.remote_actor_url !== actorUrl) return false;
    c.content = content;
    c.updated_at = at;
    return true;
  }

  async commentsOf(actorUrl: string) {
    return [...this.content.comments.values()]
      .filter((c) => c.remote_actor_url === actorUrl)
      .map((c) => c.id)
      .sort((a, b) => a - b);
  }

  async react(postId: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    const before = this.reactions.find((r) => r.post_id === postId && r.actor_url === actorUrl);
    if (this.reactions.some((r) => r.activity_id === activityId && r !== before)) return 'unchanged' as const;
    if (!before) {
      this.reactions.push({ post_id: postId, actor_url: actorUrl, activity_id: activityId, reaction_type: type, created_at: at });
      const post = this.content.posts.get(postId);
      if (post) post.likes_count += 1;
      return 'added' as const;
    }
    const changed = before.reaction_type !== type;
    Object.assign(before, { activity_id: activityId, reaction_type: type, created_at: at });
    return changed ? ('changed' as const) : ('unchanged' as const);
  }

  async unreact(activityId: string, actorUrl: string) {
    if (this.undo(this.reactions, 'likes_count', activityId, actorUrl)) return true;
    const i = this.commentReactionRows.findIndex((r) => r.activity_id === activityId && r.actor_url === actorUrl);
    if (i < 0) return false;
    const [row] = this.commentReactionRows.splice(i, 1);
    const comment = this.content.comments.get(row.comment_id);
    if (comment) comment.reactions_count -= 1;
    return true;
  }

  async reactToComment(commentId: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    const rows = this.commentReactionRows;
    const before = rows.find((r) => r.comment_id === commentId && r.actor_url === actorUrl);
    if (rows.some((r) => r.activity_id === activityId && r !== before)) return 'unchanged' as const;
    if (!before) {
      rows.push({ comment_id: commentId, actor_url: actorUrl, activity_id: activityId, reaction_type: type, created_at: at });
      const comment = this.content.comments.get(commentId);
      if (comment) comment.reactions_count += 1;
      return 'added' as const;
    }
    const changed = before.reaction_type !== type;
    Object.assign(before, { activity_id: activityId, reaction_type: type, created_at: at });
    return changed ? ('changed' as const) : ('unchanged' as const);
  }

  async commentReactions(commentId: number) {
    return this.commentReactionRows
      .filter((r) => r.comment_id === commentId && this.content.comments.has(commentId))
      .sort((a, b) => (a.created_at === b.created_at ? a.actor_url.localeCompare(b.actor_url) : a.created_at < b.created_at ? -1 : 1))
      .map(({ actor_url, reaction_type, created_at }) => ({ actor_url, reaction_type, created_at }));
  }

  async participants(postId: number, limit: number) {
    const first = new Map<string, number>();
    for (const c of [...this.content.comments.values()].sort((a, b) => a.id - b.id))
      if (c.post_id === postId && c.remote_actor_url && !first.has(c.remote_actor_url)) first.set(c.remote_actor_url, c.id);
    return [...first.keys()].slice(0, limit);
  }

  async share(postId: number, actorUrl: string, activityId: string, at: Timestamp) {
    if (this.boosts.some((b) => (b.post_id === postId && b.actor_url === actorUrl) || b.activity_id === activityId)) return false;
    this.boosts.push({ post_id: postId, actor_url: actorUrl, activity_id: activityId, created_at: at });
    const post = this.content.posts.get(postId);
    if (post) post.shares_count += 1;
    return true;
  }

  async unshare(activityId: string, actorUrl: string) {
    return this.undo(this.boosts, 'shares_count', activityId, actorUrl);
  }

  private undo(
    rows: { post_id: number; actor_url: string; activity_id: string }[],
    counter: 'likes_count' | 'shares_count',
    activityId: string,
    actorUrl: string,
  ) {
    const i = rows.findIndex((r) => r.activity_id === activityId && r.actor_url === actorUrl);
    if (i < 0) return false;
    const [row] = rows.splice(i, 1);
    const post = this.content.posts.get(row.post_id);
    if (post) post[counter] -= 1;
    return true;
  }

  async isFollower(userId: number, actorUrl: string) {
    return (await this.follows.followers(userId, { page: 1, perPage: 1_000_000 })).items.some((f) => f.actor_url === actorUrl);
  }

  async forgetActor(actorUrl: string) {
    for (const r of this.reactions.filter((x) => x.actor_url === actorUrl)) await this.unreact(r.activity_id, actorUrl);
    for (const b of this.boosts.filter((x) => x.actor_url === actorUrl)) await this.unshare(b.activity_id, actorUrl);
    for (const r of this.commentReactionRows.filter((x) => x.actor_url === actorUrl)) await this.unreact(r.activity_id, actorUrl);
    this.follows.forget(actorUrl);
    this.posts.forget(actorUrl);
    this.actors.forget(actorUrl);
  }
}
