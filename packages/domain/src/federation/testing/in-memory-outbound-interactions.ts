import type { Timestamp } from '../../shared/time.js';
import type { NewOutboundReply, OutboundInteractionRepository, OutboundReaction, OutboundReply } from '../remote-engagement.js';

/** Reactions and replies to remote Notes in memory: the SQL tables' rules (one reaction per user and Note). */
export class InMemoryOutboundInteractionRepository implements OutboundInteractionRepository {
  private seq = 0;
  readonly reactions: OutboundReaction[] = [];
  readonly replies: OutboundReply[] = [];

  private indexOf(userId: number, objectId: string, activityId?: string): number {
    return this.reactions.findIndex(
      (r) => r.user_id === userId && r.object_id === objectId && (activityId === undefined || r.activity_id === activityId),
    );
  }
  async addReaction(reaction: OutboundReaction) {
    if (this.indexOf(reaction.user_id, reaction.object_id) >= 0) return false;
    this.reactions.push({ ...reaction });
    return true;
  }
  async findReaction(userId: number, objectId: string) {
    const i = this.indexOf(userId, objectId);
    return i < 0 ? null : { ...this.reactions[i] };
  }
  async replaceReaction(previous: OutboundReaction, next: Pick<OutboundReaction, 'reaction_type' | 'activity_id' | 'reacted_at'>) {
    const i = this.indexOf(previous.user_id, previous.object_id, previous.activity_id);
    if (i < 0) return false;
    this.reactions[i] = { ...this.reactions[i], ...next };
    return true;
  }
  async removeReaction(reaction: OutboundReaction) {
    const i = this.indexOf(reaction.user_id, reaction.object_id, reaction.activity_id);
    if (i < 0) return false;
    this.reactions.splice(i, 1);
    return true;
  }
  async addReply(reply: NewOutboundReply) {
    const stored = { ...reply, id: ++this.seq, updated_at: null };
    this.replies.push(stored);
    return { ...stored };
  }
  async findReply(id: number) {
    const found = this.replies.find((r) => r.id === id);
    return found ? { ...found } : null;
  }
  async editReply(reply: Pick<OutboundReply, 'id' | 'user_id'>, edit: { content: string; updated_at: Timestamp }) {
    const found = this.replies.find((r) => r.id === reply.id && r.user_id === reply.user_id);
    if (found) Object.assign(found, { content: edit.content, updated_at: edit.updated_at });
    return !!found;
  }
  async removeReply(reply: Pick<OutboundReply, 'id' | 'user_id'>) {
    const i = this.replies.findIndex((r) => r.id === reply.id && r.user_id === reply.user_id);
    if (i >= 0) this.replies.splice(i, 1);
    return i >= 0;
  }
}
