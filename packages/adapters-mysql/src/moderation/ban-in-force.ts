import type { Expression, ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import type { Database } from '../database.js';

/**
 * The one rule of a ban in force at `now`: permanent, or not yet expired. The sanction repository
 * reads the ban itself with it; the token lookup asks with it whether one exists, so that admitting
 * a request costs no query of its own (accounts' `ActiveToken.banned`).
 */
export function banInForce(eb: ExpressionBuilder<Database, 'user_bans'>, now: string): Expression<SqlBool> {
  return eb.or([eb('user_bans.is_permanent', '=', 1), eb('user_bans.expires_at', '>', now)]);
}

/** Whether the user `userId` (a column of the outer query) has a ban in force at `now`. */
export function hasBanInForce(
  eb: ExpressionBuilder<Database, any>,
  userId: Expression<number>,
  now: string,
): ExpressionWrapper<Database, any, SqlBool> {
  return eb.exists(
    eb
      .selectFrom('user_bans')
      .select('user_bans.id')
      .where('user_bans.user_id', '=', userId)
      .where((b) => banInForce(b, now)),
  );
}

/**
 * Whether the user `userId` (a column of the outer query) is suspended (docs/decisions/0105): one probe
 * of user_suspensions' primary key, read by the token lookup beside the ban.
 */
export function isSuspended(eb: ExpressionBuilder<Database, any>, userId: Expression<number>): ExpressionWrapper<Database, any, SqlBool> {
  return eb.exists(eb.selectFrom('user_suspensions').select('user_suspensions.user_id').where('user_suspensions.user_id', '=', userId));
}
