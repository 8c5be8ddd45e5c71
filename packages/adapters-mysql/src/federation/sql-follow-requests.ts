import type { Kysely } from 'kysely';
import { offsetOf, type PageRequest } from '@plaza/domain';
import type { Counted, NewRemoteFollowRequest, RemoteFollowRequest, RemoteFollowRequestRepository } from '@plaza/domain/federation';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';
import './schema-follow-requests.js';

/** Pending remote Follows of private accounts (docs/decisions/0210); one per user and actor. */
export class SqlRemoteFollowRequestRepository implements RemoteFollowRequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(request: NewRemoteFollowRequest): Promise<boolean> {
    if (await insertIfAbsent(this.db, 'remote_follow_requests', { ...request })) return true;
    // The actor asked again (a new Follow id): the answer must name the latest.
    await this.db
      .updateTable('remote_follow_requests')
      .set({ follow_id: request.follow_id })
      .where('user_id', '=', request.user_id)
      .where('actor_url', '=', request.actor_url)
      .execute();
    return false;
  }

  async find(id: number): Promise<RemoteFollowRequest | null> {
    return (await this.db.selectFrom('remote_follow_requests').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async remove(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('remote_follow_requests').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async removeByActor(userId: number, actorUrl: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('remote_follow_requests')
      .where('user_id', '=', userId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async removeByFollowId(actorUrl: string, followId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('remote_follow_requests')
      .where('actor_url', '=', actorUrl)
      .where('follow_id', '=', followId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async pending(userId: number, page: PageRequest): Promise<Counted<RemoteFollowRequest>> {
    const [items, total] = await Promise.all([
      this.db
        .selectFrom('remote_follow_requests')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('remote_follow_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  }
}
