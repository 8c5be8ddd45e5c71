import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart } from '@plaza/domain/accounts';
import { OPEN_STATUSES } from '@plaza/domain/calls';
import type { Kysely } from 'kysely';
import { BATCH, keyset } from '../batches.js';
import type { Database } from '../database.js';

/**
 * The calls context's share of a user's data. A call is shared history: its row stays under the
 * tombstone for the other side, but the user's calls still ringing or active end now, and the
 * signalling payloads (session descriptions, candidates: network addresses) go.
 */
export class SqlCallsAccountData implements AccountDataPart {
  readonly sections = ['calls'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  /** The calls the user placed or was part of, without signalling payloads. */
  rows(userId: number) {
    const db = this.db;
    return keyset(
      (after) =>
        db
          .selectFrom('calls')
          .select(['id', 'caller_id', 'recipient_id', 'group_id', 'call_type', 'status', 'created_at', 'answered_at', 'ended_at'])
          .where((eb) =>
            eb.or([
              eb('caller_id', '=', userId),
              eb('id', 'in', db.selectFrom('call_participants').select('call_id').where('user_id', '=', userId)),
            ]),
          )
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute(),
      (r) => r.id,
    );
  }

  async *media() {}

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    const open = [...OPEN_STATUSES];
    await db
      .updateTable('calls')
      .set({ status: 'ended', ended_at: at })
      .where('status', 'in', open)
      .where((eb) => eb.or([eb('caller_id', '=', userId), eb('recipient_id', '=', userId)]))
      .execute();
    await db
      .updateTable('call_participants')
      .set({ status: 'left', left_at: at })
      .where('user_id', '=', userId)
      .where('left_at', 'is', null)
      .execute();
    await db
      .deleteFrom('call_signals')
      .where((eb) => eb.or([eb('from_user_id', '=', userId), eb('to_user_id', '=', userId)]))
      .execute();
    await db.updateTable('calls').set({ offer_sdp: null, answer_sdp: null }).where('caller_id', '=', userId).execute();
  }
}
