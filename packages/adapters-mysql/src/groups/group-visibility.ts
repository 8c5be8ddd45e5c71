import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database.js';

/**
 * The domain's group visibility rule (`canSeeGroupContent` in @plaza/domain/groups, visibility.ts) as a
 * SQL predicate: true when user `userId` may see the content of the group `groupId` refers to (false
 * for no group): the group is public, or the user is one of its members. Lists and the notification
 * inbox compose it; the groups contract suite runs the same cases on this and on the fake.
 */
export function groupContentVisibleTo(userId: number, groupId: Expression<number | null>): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.exists(
    eb
      .selectFrom('community_groups as vg')
      .select('vg.id')
      .where('vg.id', '=', groupId)
      .where((e) =>
        e.or([
          e('vg.privacy', '=', 'public'),
          e.exists(
            e
              .selectFrom('group_members as vm')
              .select('vm.group_id')
              .whereRef('vm.group_id', '=', 'vg.id')
              .where('vm.user_id', '=', userId),
          ),
        ]),
      ),
  );
}
