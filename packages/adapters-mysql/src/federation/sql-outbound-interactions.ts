import type { Kysely } from 'kysely';
import type { Timestamp } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import type { NewOutboundReply, OutboundInteractionRepository, OutboundReaction, OutboundReply } from '@plaza/domain/federation';
import type { Database } from '../database.js';
import { insertedId, insertIfAbsent } from '../dialect.js';
import './schema-outbound-interactions.js';

/**
 * Local users' reactions and replies to remote Notes (docs/decisions/0245). A reaction is keyed by
 * user and Note; every change is one conditional write (insert if absent, update or delete naming the
 * activity it replaces), so of concurrent identical requests only one changes the row.
 */
export class SqlOutboundInteractionRepository implements OutboundInteractionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  addReaction(reaction: OutboundReaction): Promise<boolean> {
    return insertIfAbsent(this.db, 'outbound_remote_reactions', { ...reaction });
  }

  async findReaction(userId: number, objectId: string): Promise<OutboundReaction | null> {
    const row = await this.db
      .selectFrom('outbound_remote_reactions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('object_id', '=', objectId)
      .executeTakeFirst();
    return row ? { ...row, reaction_type: row.reaction_type as ReactionType } : null;
  }

  async replaceReaction(
    previous: OutboundReaction,
    next: Pick<OutboundReaction, 'reaction_type' | 'activity_id' | 'reacted_at'>,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('outbound_remote_reactions')
      .set(next)
      .where('user_id', '=', previous.user_id)
      .where('object_id', '=', previous.object_id)
      .where('activity_id', '=', previous.activity_id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removeReaction(reaction: OutboundReaction): Promise<boolean> {
    const r = await this.db
      .deleteFrom('outbound_remote_reactions')
      .where('user_id', '=', reaction.user_id)
      .where('object_id', '=', reaction.object_id)
      .where('activity_id', '=', reaction.activity_id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async addReply(reply: NewOutboundReply): Promise<OutboundReply> {
    const id = insertedId(await this.db.insertInto('outbound_remote_replies').values(reply).executeTakeFirstOrThrow());
    return { ...reply, id, updated_at: null };
  }

  async findReply(id: number): Promise<OutboundReply | null> {
    const row = await this.db.selectFrom('outbound_remote_replies').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { ...row, audience: row.audience as OutboundReply['audience'] } : null;
  }

  async editReply(reply: Pick<OutboundReply, 'id' | 'user_id'>, edit: { content: string; updated_at: Timestamp }): Promise<boolean> {
    const r = await this.db
      .updateTable('outbound_remote_replies')
      .set({ content: edit.content, updated_at: edit.updated_at })
      .where('id', '=', reply.id)
      .where('user_id', '=', reply.user_id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removeReply(reply: Pick<OutboundReply, 'id' | 'user_id'>): Promise<boolean> {
    const r = await this.db
      .deleteFrom('outbound_remote_replies')
      .where('id', '=', reply.id)
      .where('user_id', '=', reply.user_id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
