import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import type {
  GroupChanges,
  GroupCommentRecord,
  GroupCommentRepository,
  GroupPostRecord,
  GroupPostRepository,
  GroupPrivacy,
  GroupRecord,
  GroupRelation,
  GroupRepository,
  GroupRole,
  NewGroup,
  NewGroupPost,
} from '@plaza/domain/groups';
import { type Kysely, type Selectable, sql } from 'kysely';
import { CommentThreads, deleteCommentReactions } from '../comment-threads.js';
import type { Database } from '../database.js';
import { insertedId, insertIfAbsent, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import { containsText } from '../messaging/text-search.js';
import type { CommunityGroupsTable, GroupCommentsTable, GroupPostsTable } from './schema.js';
import { parseList } from '../json-list.js';
import { postsOfPlace, putPostReaction, reactionsBy, removePostReaction, underReport } from '../surface-post-table.js';
import { SqlThreadedCommentRepository } from '../threaded-comment-repository.js';
import { GROUP_TABLES } from '../surface-tables.js';

/** Rows deleted or updated by a statement (mysql2 counts matched rows for updates: FOUND_ROWS). */
function affected(result: object): boolean {
  const r = result as { numDeletedRows?: bigint; numUpdatedRows?: bigint };
  return Number(r.numDeletedRows ?? r.numUpdatedRows ?? 0) > 0;
}

function toGroup(row: Selectable<CommunityGroupsTable>): GroupRecord {
  return { ...row, privacy: row.privacy as GroupPrivacy, members_count: Number(row.members_count), posts_count: Number(row.posts_count) };
}

function toPost(row: Selectable<GroupPostsTable>): GroupPostRecord {
  return {
    ...row,
    media: parseList(row.media),
    tags: parseList(row.tags),
    likes_count: Number(row.likes_count),
    comments_count: Number(row.comments_count),
  };
}

function toComment(row: Selectable<GroupCommentsTable>): GroupCommentRecord {
  return row;
}

/** Takes a row's write lock (MySQL) and tells whether the row exists. */
async function lockExisting(
  db: Kysely<Database>,
  dialect: SqlDialect,
  table: 'community_groups' | 'group_posts' | 'group_comments',
  id: number,
): Promise<boolean> {
  if (dialect === 'mysql') {
    const rows = await sql<{ id: number }>`select id from ${sql.table(table)} where id = ${id} for update`.execute(db);
    return rows.rows.length > 0;
  }
  return (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export class SqlGroupRepository implements GroupRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async create(g: NewGroup) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(
        await trx
          .insertInto('community_groups')
          .values({ ...g, members_count: 1 })
          .executeTakeFirstOrThrow(),
      );
      await trx
        .insertInto('group_members')
        .values({ group_id: id, user_id: g.creator_id, role: 'admin', joined_at: g.created_at })
        .execute();
      return { id, ...g, members_count: 1, posts_count: 0, updated_at: null };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('community_groups').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toGroup(row) : null;
  }

  async update(id: number, changes: GroupChanges) {
    await this.db.updateTable('community_groups').set(changes).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.transaction().execute(async (trx) => {
      if (!(await lockExisting(trx, this.dialect, 'community_groups', id))) return;
      const comments = await trx.selectFrom('group_comments').select('id').where('group_id', '=', id).execute();
      await deleteCommentReactions(
        trx,
        'group',
        comments.map((c) => c.id),
      );
      // Members, requests, invitations, posts, their reactions and comments go by cascade.
      await trx.deleteFrom('community_groups').where('id', '=', id).execute();
    });
  }

  lock(id: number) {
    return lockExisting(this.db, this.dialect, 'community_groups', id);
  }

  async listJoined(userId: number, q: string | null, page: PageRequest) {
    let query = this.db
      .selectFrom('group_members as m')
      .innerJoin('community_groups as g', 'g.id', 'm.group_id')
      .selectAll('g')
      .where('m.user_id', '=', userId);
    if (q) query = query.where((eb) => eb.or([containsText('g.name', q) as never, containsText('g.description', q) as never]));
    const rows = await query
      .orderBy('m.seq', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map(toGroup);
  }

  async listDiscover(userId: number, q: string | null, page: PageRequest) {
    let query = this.db
      .selectFrom('community_groups as g')
      .selectAll('g')
      .where('g.privacy', '=', 'public')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('group_members as m').select('m.group_id').whereRef('m.group_id', '=', 'g.id').where('m.user_id', '=', userId),
          ),
        ),
      );
    if (q) query = query.where((eb) => eb.or([containsText('g.name', q) as never, containsText('g.description', q) as never]));
    const rows = await query
      .orderBy('g.members_count', 'desc')
      .orderBy('g.id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map(toGroup);
  }

  async relation(groupId: number, userId: number): Promise<GroupRelation> {
    return (await this.relations([groupId], userId)).get(groupId)!;
  }

  async relations(groupIds: number[], userId: number) {
    const out = new Map<number, GroupRelation>(groupIds.map((id) => [id, { role: null, invited: false, requested: false }]));
    if (groupIds.length === 0) return out;
    const members = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'role'])
      .where('user_id', '=', userId)
      .where('group_id', 'in', groupIds)
      .execute();
    const invited = await this.db
      .selectFrom('group_invitations')
      .select('group_id')
      .where('user_id', '=', userId)
      .where('group_id', 'in', groupIds)
      .execute();
    const requested = await this.db
      .selectFrom('group_join_requests')
      .select('group_id')
      .where('user_id', '=', userId)
      .where('group_id', 'in', groupIds)
      .execute();
    for (const m of members) out.get(m.group_id)!.role = m.role as GroupRole;
    for (const i of invited) out.get(i.group_id)!.invited = true;
    for (const r of requested) out.get(r.group_id)!.requested = true;
    return out;
  }

  async addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'community_groups', groupId);
      if (!(await insertIfAbsent(trx, 'group_members', { group_id: groupId, user_id: userId, role, joined_at: at }))) return false;
      await trx.updateTable('community_groups').set({ members_count: sql`members_count + 1` }).where('id', '=', groupId).execute();
      return true;
    });
  }

  async removeMember(groupId: number, userId: number) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'community_groups', groupId);
      const deleted = await trx
        .deleteFrom('group_members')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!affected(deleted)) return false;
      await trx.updateTable('community_groups').set({ members_count: sql`members_count - 1` }).where('id', '=', groupId).execute();
      return true;
    });
  }

  async setRole(groupId: number, userId: number, role: GroupRole) {
    return affected(
      await this.db
        .updateTable('group_members')
        .set({ role })
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    );
  }

  async members(groupId: number, page: PageRequest) {
    // Admins first: 'admin' sorts before 'member'. Served by group_members_role (group_id, role, seq).
    const rows = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id', 'role', 'joined_at'])
      .where('group_id', '=', groupId)
      .orderBy('role', 'asc')
      .orderBy('seq', 'asc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => ({ ...r, role: r.role as GroupRole }));
  }

  async adminIds(groupId: number) {
    const rows = await this.db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('role', '=', 'admin')
      .orderBy('seq', 'asc')
      .execute();
    return rows.map((r) => r.user_id);
  }

  async longestMember(groupId: number, except: number) {
    const row = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id', 'role', 'joined_at'])
      .where('group_id', '=', groupId)
      .where('user_id', '<>', except)
      .orderBy('seq', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row ? { ...row, role: row.role as GroupRole } : null;
  }

  addRequest(groupId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'group_join_requests', { group_id: groupId, user_id: userId, created_at: at });
  }

  async removeRequest(groupId: number, userId: number) {
    return affected(
      await this.db.deleteFrom('group_join_requests').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst(),
    );
  }

  async requests(groupId: number, page: PageRequest) {
    return this.db
      .selectFrom('group_join_requests')
      .select(['group_id', 'user_id', 'created_at'])
      .where('group_id', '=', groupId)
      .orderBy('id', 'asc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
  }

  addInvitation(groupId: number, userId: number, invitedBy: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'group_invitations', { group_id: groupId, user_id: userId, invited_by: invitedBy, created_at: at });
  }

  async removeInvitation(groupId: number, userId: number) {
    return affected(
      await this.db.deleteFrom('group_invitations').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst(),
    );
  }
}

export class SqlGroupPostRepository implements GroupPostRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  /** The moderation context's reports. */
  underReport(id: number) {
    return underReport(this.db, GROUP_TABLES, id);
  }

  async create(p: NewGroupPost) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'community_groups', p.group_id);
      const row = { ...p, media: JSON.stringify(p.media), tags: JSON.stringify(p.tags) };
      const id = insertedId(await trx.insertInto('group_posts').values(row).executeTakeFirstOrThrow());
      await trx.updateTable('community_groups').set({ posts_count: sql`posts_count + 1` }).where('id', '=', p.group_id).execute();
      return { id, ...p, likes_count: 0, comments_count: 0, updated_at: null };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('group_posts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPost(row) : null;
  }

  async update(id: number, changes: { content: string; updated_at: Timestamp }) {
    await this.db.updateTable('group_posts').set(changes).where('id', '=', id).execute();
  }

  async delete(id: number) {
    const found = await this.db.selectFrom('group_posts').select('group_id').where('id', '=', id).executeTakeFirst();
    if (!found) return false;
    return this.db.transaction().execute(async (trx) => {
      // The group's lock, then the post's, as every writer takes them: then the reads see the last commit.
      await lockRowForUpdate(trx, this.dialect, 'community_groups', found.group_id);
      if (!(await lockExisting(trx, this.dialect, 'group_posts', id))) return false;
      const comments = await trx.selectFrom('group_comments').select('id').where('post_id', '=', id).execute();
      await deleteCommentReactions(
        trx,
        'group',
        comments.map((c) => c.id),
      );
      // Its reactions and comments go by cascade.
      await trx.deleteFrom('group_posts').where('id', '=', id).execute();
      await trx.updateTable('community_groups').set({ posts_count: sql`posts_count - 1` }).where('id', '=', found.group_id).execute();
      return true;
    });
  }

  async listByGroup(groupId: number, page: PageRequest) {
    const rows = await postsOfPlace(this.db, GROUP_TABLES, groupId, { limit: page.perPage + 1, offset: offsetOf(page) });
    return rows.map(toPost);
  }

  react(postId: number, userId: number, reaction: ReactionType, at: Timestamp) {
    return putPostReaction(this.db, this.dialect, GROUP_TABLES, { postId, userId, type: reaction, at });
  }

  unreact(postId: number, userId: number) {
    return removePostReaction(this.db, this.dialect, GROUP_TABLES, postId, userId);
  }

  reactionsBy(userId: number, postIds: number[]) {
    return reactionsBy(this.db, GROUP_TABLES, userId, postIds);
  }
}

export class SqlGroupCommentRepository
  extends SqlThreadedCommentRepository<typeof GROUP_TABLES, GroupCommentRecord>
  implements GroupCommentRepository
{
  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    super(db, dialect, GROUP_TABLES, toComment);
  }

  async create(c: Omit<GroupCommentRecord, 'id' | 'updated_at'>) {
    return { id: await this.comments.add(c), ...c, updated_at: null };
  }

  async lock(id: number) {
    // The post's lock first, as a comment's or a post's deletion takes it: then the comment's, read
    // under it, so a comment deleted meanwhile is seen gone.
    const row = await this.db.selectFrom('group_comments').select('post_id').where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    await lockRowForUpdate(this.db, this.dialect, 'group_posts', row.post_id);
    return lockExisting(this.db, this.dialect, 'group_comments', id);
  }
}
