import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import { canHost } from './hosts.js';
import { MAX_LIVE_COMMENT, type LiveCommentRecord, type LiveRecord } from './model.js';
import type { LiveRepository } from './ports.js';

export interface LiveCommentView {
  comment: LiveCommentRecord;
  author: UserRecord | null;
}

/**
 * A live's chat as the server keeps it (lives.php comments; the clients also relay it over the media
 * room). Users blocked from the chat cannot post; a comment is deleted by its author or by the live's
 * hosts (`canHost`).
 */
export class LiveChatService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, liveId: number, page: PageRequest): Promise<{ items: LiveCommentView[]; meta: PageMeta }> {
    const live = await this.find(liveId);
    const { items, total } = await this.lives.comments(live.id, page);
    const users = new Map(
      (items.length ? await this.users.findByIds([...new Set(items.map((c) => c.user_id))]) : []).map((u) => [u.id, u]),
    );
    return { items: items.map((comment) => ({ comment, author: users.get(comment.user_id) ?? null })), meta: pageMeta(page, total) };
  }

  async post(actor: Actor, liveId: number, content: string): Promise<LiveCommentRecord> {
    const text = content.trim();
    if (text === '') throw Invalid.field('content', 'must not be empty');
    if (text.length > MAX_LIVE_COMMENT) throw Invalid.field('content', `must be at most ${MAX_LIVE_COMMENT} characters`);
    const live = await this.find(liveId);
    if (live.status !== 'active') throw new Conflict('This live has ended', 'live_ended');
    if (await this.lives.isChatBlocked(live.id, actor.userId)) throw new Forbidden('You are blocked from this live’s chat', 'chat_blocked');
    return this.lives.addComment({ live_id: live.id, user_id: actor.userId, content: text, created_at: toTimestamp(this.clock.now()) });
  }

  async delete(actor: Actor, liveId: number, commentId: number): Promise<void> {
    const live = await this.find(liveId);
    const comment = await this.lives.findComment(commentId);
    if (!comment || comment.live_id !== live.id) throw new NotFound('Comment not found', 'comment_not_found');
    if (comment.user_id !== actor.userId && !(await canHost(this.lives, actor, live))) {
      throw new Forbidden('Only its author and the live’s hosts can delete a comment', 'not_comment_author');
    }
    await this.lives.deleteComment(comment.id);
  }

  private async find(liveId: number): Promise<LiveRecord> {
    const live = await this.lives.findById(liveId);
    if (!live) throw new NotFound('Live not found', 'live_not_found');
    return live;
  }
}
