import type { Timestamp } from '@plaza/domain';
import type { RecoveryCodeRepository } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

export class SqlRecoveryCodeRepository implements RecoveryCodeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async replace(userId: number, hashes: string[], at: Timestamp) {
    // Its own transaction (joining the caller's unit when there is one): never a half-replaced set.
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      if (hashes.length) {
        await trx
          .insertInto('two_factor_recovery_codes')
          .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: at })))
          .execute();
      }
    });
  }

  async consume(userId: number, hash: string, at: Timestamp) {
    // The condition on used_at makes a code single-use under concurrency: one caller changes the row.
    const result = await this.db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countUnused(userId: number) {
    const row = await this.db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteAll(userId: number) {
    await this.db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  }
}
