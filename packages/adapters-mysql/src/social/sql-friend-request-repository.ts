import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { FriendRequestRecord, FriendRequestRepository, FriendRequestStatus } from '@plaza/domain/social';
import type { Kysely, Selectable } from 'kysely';
import { insertedId, lockRowsForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { FriendRequestsTable } from '../messaging/schema.js';

function toRecord(row: Selectable<FriendRequestsTable>): FriendRequestRecord {
  return { ...row, id: Number(row.id), status: row.status as FriendRequestStatus };
}

export class SqlFriendRequestRepository implements FriendRequestRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  /**
   * The two users' rows stand for the pair: there may be no request row yet to lock, and locking a
   * missing row only takes gap locks, which two units can both hold and then deadlock on insert.
   */
  async lockPair(a: number, b: number) {
    await lockRowsForUpdate(this.db, this.dialect, 'users', [a, b]);
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('friend_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findBetween(senderId: number, receiverId: number) {
    const row = await this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where('sender_id', '=', senderId)
      .where('receiver_id', '=', receiverId)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async create(senderId: number, receiverId: number, at: Timestamp) {
    const values = { sender_id: senderId, receiver_id: receiverId, status: 'pending', created_at: at, responded_at: null };
    const id = insertedId(await this.db.insertInto('friend_requests').values(values).executeTakeFirstOrThrow());
    return toRecord({ id, ...values });
  }

  async setStatus(id: number, status: FriendRequestStatus, at: Timestamp) {
    await this.db
      .updateTable('friend_requests')
      .set(status === 'pending' ? { status, created_at: at, responded_at: null } : { status, responded_at: at })
      .where('id', '=', id)
      .execute();
  }

  async removeFriendship(a: number, b: number) {
    const result = await this.db
      .deleteFrom('friend_requests')
      .where('status', '=', 'accepted')
      .where((eb) =>
        eb.or([eb.and([eb('sender_id', '=', a), eb('receiver_id', '=', b)]), eb.and([eb('sender_id', '=', b), eb('receiver_id', '=', a)])]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async friendIds(userId: number, page: PageRequest) {
    // Both directions through their own index, merged.
    const friends = this.db
      .selectFrom('friend_requests')
      .select(['receiver_id as friend_id', 'responded_at'])
      .where('sender_id', '=', userId)
      .where('status', '=', 'accepted')
      .unionAll(
        this.db
          .selectFrom('friend_requests')
          .select(['sender_id as friend_id', 'responded_at'])
          .where('receiver_id', '=', userId)
          .where('status', '=', 'accepted'),
      );
    const rows = await this.db
      .selectFrom(friends.as('f'))
      .select('f.friend_id')
      .orderBy('f.responded_at', 'desc')
      .orderBy('f.friend_id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    const count = await this.db
      .selectFrom(friends.as('f'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { ids: rows.map((r) => Number(r.friend_id)), total: Number(count.n) };
  }

  async pendingReceived(userId: number, page: PageRequest) {
    const base = this.db.selectFrom('friend_requests').where('receiver_id', '=', userId).where('status', '=', 'pending');
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { items: rows.map(toRecord), total: Number(count.n) };
  }
}
