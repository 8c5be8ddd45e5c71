import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import { groupContentVisibleTo } from '../groups/group-visibility.js';

/**
 * The domain's page rule (`canSeePage` in @plaza/domain/pages, rules.ts) as a SQL predicate on a page
 * post's id: its page is public, or the viewer is on its team (page_admins).
 */
export function pagePostVisibleTo(userId: number, postId: Expression<number>): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.exists(
    eb
      .selectFrom('page_posts as vpp')
      .innerJoin('pages as vpg', 'vpg.id', 'vpp.page_id')
      .select('vpp.id')
      .where('vpp.id', '=', postId)
      .where((e) =>
        e.or([
          e('vpg.privacy', '=', 'public'),
          e.exists(
            e
              .selectFrom('page_admins as vpa')
              .select('vpa.page_id')
              .whereRef('vpa.page_id', '=', 'vpg.id')
              .where('vpa.user_id', '=', userId),
          ),
        ]),
      ),
  );
}

/** A group post's group rule (`canSeeGroupContent`) on the post's id; false when the post is gone. */
export function groupPostVisibleTo(userId: number, postId: Expression<number>): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.exists(
    eb
      .selectFrom('group_posts as vgp')
      .select('vgp.id')
      .where('vgp.id', '=', postId)
      .where((e) => groupContentVisibleTo(userId, e.ref('vgp.group_id'))),
  );
}
