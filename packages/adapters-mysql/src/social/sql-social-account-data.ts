import type { AccountDataPart, ExportRow } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH, keyset } from '../batches.js';
import type { Database } from '../database.js';

/** The social context's share of a user's data: follows both ways, friendships and pending friend requests. */
export class SqlSocialAccountData implements AccountDataPart {
  readonly sections = ['following', 'followers', 'friends', 'friend_requests'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    switch (section) {
      case 'following':
        return this.follows(userId, 'follower_id', 'followee_id');
      case 'followers':
        return this.follows(userId, 'followee_id', 'follower_id');
      case 'friends':
        return this.friendRequests(userId, 'accepted');
      default:
        return this.friendRequests(userId, 'pending');
    }
  }

  async *media() {}

  async erase(userId: number): Promise<void> {
    await this.db
      .deleteFrom('follows')
      .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)]))
      .execute();
    await this.db
      .deleteFrom('friend_requests')
      .where((eb) => eb.or([eb('sender_id', '=', userId), eb('receiver_id', '=', userId)]))
      .execute();
  }

  private follows(userId: number, mine: 'follower_id' | 'followee_id', theirs: 'follower_id' | 'followee_id') {
    return keyset(
      (after) =>
        this.db
          .selectFrom('follows as f')
          .innerJoin('users as u', 'u.id', `f.${theirs}`)
          .select([`f.${theirs} as user_id`, 'u.username', 'f.created_at'])
          .where(`f.${mine}`, '=', userId)
          .where(`f.${theirs}`, '>', after)
          .orderBy(`f.${theirs}`)
          .limit(BATCH)
          .execute(),
      (r) => r.user_id,
    );
  }

  /** Accepted requests are friendships; pending ones are listed with their direction. */
  private async *friendRequests(userId: number, status: 'accepted' | 'pending'): AsyncGenerator<ExportRow> {
    for (const [mine, theirs, direction] of [
      ['sender_id', 'receiver_id', 'sent'],
      ['receiver_id', 'sender_id', 'received'],
    ] as const) {
      yield* keyset(
        (after) =>
          this.db
            .selectFrom('friend_requests as r')
            .innerJoin('users as u', 'u.id', `r.${theirs}`)
            .select(['r.id', `r.${theirs} as user_id`, 'u.username', 'r.created_at', 'r.responded_at'])
            .select((eb) => eb.val(direction).as('direction'))
            .where(`r.${mine}`, '=', userId)
            .where('r.status', '=', status)
            .where('r.id', '>', after)
            .orderBy('r.id')
            .limit(BATCH)
            .execute(),
        (r) => r.id,
      );
    }
  }
}
