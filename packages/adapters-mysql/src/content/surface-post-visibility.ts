import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import { groupContentVisibleTo } from '../groups/group-visibility.js';
import type { Viewer } from '@plaza/domain/content';
import { postVisibleTo } from './post-visibility.js';

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

/**
 * A wall entry's post by its surface's rule (docs/decisions/0230): a wall post's (`postVisibleTo`), a
 * group post's, a page post's; false when the post is gone. `type` is the entry's `post_type` column.
 */
export function entryVisibleTo(viewer: Viewer, type: Expression<string>, postId: Expression<number>): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.or([
    eb.and([eb(type, '=', 'post'), postVisibleTo(viewer, postId)]),
    eb.and([eb(type, '=', 'group'), groupPostVisibleTo(viewer.userId, postId)]),
    eb.and([eb(type, '=', 'page'), pagePostVisibleTo(viewer.userId, postId)]),
  ]);
}
