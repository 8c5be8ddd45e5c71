import { offsetOf, type PageRequest } from '@plaza/domain';
import type { FeedEntry, SurfacePostType, Viewer } from '@plaza/domain/content';
import type { SearchIndex, UserHit } from '@plaza/domain/discovery';
import { type Kysely, sql } from 'kysely';
import { postVisibleTo } from '../content/post-visibility.js';
import { groupPostVisibleTo, pagePostVisibleTo } from '../content/surface-post-visibility.js';
import type { Database } from '../database.js';
import type { SqlDialect } from '../dialect.js';
import { charLength, likePrefix, postTextQuery } from './full-text.js';

/**
 * Search over the indexes of DISCOVERY_MIGRATIONS: accounts by a LIKE prefix on the username's unique
 * index and the display name's index (two range scans, united, so that neither database falls back
 * to scanning users for the OR), posts through the full-text index, filtered by
 * the one visibility rule (`postVisibleTo`) in the same query so that pages are full.
 */
export class SqlSearchIndex implements SearchIndex {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async users(viewerId: number, prefix: string, page: PageRequest): Promise<UserHit[]> {
    const pattern = likePrefix(prefix);
    const rows = await sql<{ id: number; is_friend: number | bigint }>`
      select u.id,
        case when exists (
          select 1 from friend_requests fr
          where fr.status = 'accepted'
            and ((fr.sender_id = ${viewerId} and fr.receiver_id = u.id) or (fr.sender_id = u.id and fr.receiver_id = ${viewerId}))
        ) then 1 else 0 end as is_friend
      from users u
      join (
        select id from users where username like ${pattern} escape '!'
        union
        select id from users where display_name like ${pattern} escape '!'
      ) m on m.id = u.id
      order by
        case when u.username = ${prefix} then 0 when u.username like ${pattern} escape '!' then 1 else 2 end,
        ${charLength(this.dialect, sql.ref('u.username'))},
        u.username,
        u.id
      limit ${page.perPage} offset ${offsetOf(page)}`.execute(this.db);
    return rows.rows.map((r) => ({ id: Number(r.id), is_friend: Number(r.is_friend) === 1 }));
  }

  async posts(viewer: Viewer, words: string[], page: PageRequest): Promise<FeedEntry[]> {
    if (words.length === 0) return [];
    const query = postTextQuery(this.dialect, words);
    const visible = postVisibleTo(viewer, sql.ref<number>('p.id'));
    const rows =
      this.dialect === 'mysql'
        ? await sql<{ id: number; created_at: string }>`
            select p.id, p.created_at, match (p.content) against (${query} in boolean mode) as score
            from posts p
            where match (p.content) against (${query} in boolean mode) and ${visible}
            order by score desc, p.created_at desc, p.id desc
            limit ${page.perPage} offset ${offsetOf(page)}`.execute(this.db)
        : await sql<{ id: number; created_at: string }>`
            select p.id, p.created_at
            from posts_fts f join posts p on p.id = f.rowid
            where posts_fts match ${query} and ${visible}
            order by bm25(posts_fts), p.created_at desc, p.id desc
            limit ${page.perPage} offset ${offsetOf(page)}`.execute(this.db);
    return rows.rows.map((r) => ({ post_id: Number(r.id), shared_by: null, feed_date: String(r.created_at) }));
  }

  /** As `posts`, on a group's or a page's posts and their own index, under their surface's rule. */
  async surfacePosts(viewer: Viewer, type: SurfacePostType, words: string[], page: PageRequest): Promise<number[]> {
    if (words.length === 0) return [];
    const query = postTextQuery(this.dialect, words);
    const table = sql.raw(type === 'group' ? 'group_posts' : 'page_posts');
    const fts = sql.raw(type === 'group' ? 'group_posts_fts' : 'page_posts_fts');
    const visible =
      type === 'group'
        ? groupPostVisibleTo(viewer.userId, sql.ref<number>('p.id'))
        : pagePostVisibleTo(viewer.userId, sql.ref<number>('p.id'));
    const rows =
      this.dialect === 'mysql'
        ? await sql<{ id: number }>`
            select p.id, p.created_at, match (p.content) against (${query} in boolean mode) as score
            from ${table} p
            where match (p.content) against (${query} in boolean mode) and ${visible}
            order by score desc, p.created_at desc, p.id desc
            limit ${page.perPage} offset ${offsetOf(page)}`.execute(this.db)
        : await sql<{ id: number }>`
            select p.id
            from ${fts} f join ${table} p on p.id = f.rowid
            where ${fts} match ${query} and ${visible}
            order by bm25(${fts}), p.created_at desc, p.id desc
            limit ${page.perPage} offset ${offsetOf(page)}`.execute(this.db);
    return rows.rows.map((r) => Number(r.id));
  }
}
