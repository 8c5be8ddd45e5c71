import type { Viewer } from '@plaza/domain/content';
import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database.js';

/**
 * The domain's post visibility rule (`canSeePost` in @plaza/domain/content, visibility.ts) as a SQL
 * predicate: true when the viewer may see the post `postId` refers to (false for no post). Every query
 * that lists posts or what links one (walls, feeds, bookmarks, notifications…) composes it, e.g.
 * `.where((eb) => postVisibleTo(viewer, eb.ref('w.post_id')))`, so that the lists cannot drift from
 * each other or from the domain; the content contract suite runs the same cases on this and on the fake.
 *
 * Term by term as in `canSeePost` (account audience): the author's account is public, or the viewer
 * is the author, or the viewer follows the author, or the viewer moderates and a pending report names
 * the post (reports_post index). Group and page posts have their own rules in their contexts.
 */
export function postVisibleTo(viewer: Viewer, postId: Expression<number | null>): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.exists(
    eb
      .selectFrom('posts as vp')
      .innerJoin('users as vu', 'vu.id', 'vp.user_id')
      .select('vp.id')
      .where('vp.id', '=', postId)
      .where((e) =>
        e.or([
          e('vu.is_private', '=', 0),
          e('vp.user_id', '=', viewer.userId),
          e.exists(
            e
              .selectFrom('follows as vf')
              .select('vf.followee_id')
              .where('vf.follower_id', '=', viewer.userId)
              .whereRef('vf.followee_id', '=', 'vp.user_id'),
          ),
          // In a moderator's query only: MariaDB plans the sub-select even where a bound 0 would turn it
          // off (about 35 µs of server CPU per feed page), and nearly every reader is not a moderator.
          ...(viewer.moderator
            ? [
                e.exists(
                  e
                    .selectFrom('reports as vr')
                    .select('vr.id')
                    .whereRef('vr.post_id', '=', 'vp.id')
                    .where('vr.post_type', '=', 'post')
                    .where('vr.status', '=', 'pending'),
                ),
              ]
            : []),
        ]),
      ),
  );
}
