import { offsetOf, type PageRequest, type Timestamp } from '@plaza/domain';
import type { PageFields, PageRecord, PageRepository, PageRole, PagePrivacy } from '@plaza/domain/pages';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId, insertIfAbsent, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import { containsText } from '../messaging/text-search.js';
import type { PagesTable } from './schema.js';

export function toPage(row: Selectable<PagesTable>): PageRecord {
  return { ...row, privacy: row.privacy as PagePrivacy, followers_count: Number(row.followers_count) };
}

export function affected(result: object): boolean {
  const r = result as { numInsertedOrUpdatedRows?: bigint; numDeletedRows?: bigint; numUpdatedRows?: bigint };
  return Number(r.numInsertedOrUpdatedRows ?? r.numDeletedRows ?? r.numUpdatedRows ?? 0) > 0;
}

const count = (rows: { n: number | string | bigint }[]) => Number(rows[0]?.n ?? 0);

export class SqlPageRepository implements PageRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lock(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'pages', id);
  }

  async create(page: PageFields & { created_by: number; created_at: Timestamp }) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(await trx.insertInto('pages').values(page).executeTakeFirstOrThrow());
      await trx
        .insertInto('page_admins')
        .values({ page_id: id, user_id: page.created_by, role: 'admin', created_at: page.created_at })
        .execute();
      return { ...page, id, followers_count: 0, updated_at: null };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPage(row) : null;
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return (await this.db.selectFrom('pages').selectAll().where('id', 'in', ids).orderBy('id').execute()).map(toPage);
  }

  async update(id: number, patch: Partial<PageFields>, at: Timestamp) {
    await this.db
      .updateTable('pages')
      .set({ ...patch, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async managedBy(userId: number, req: PageRequest) {
    const ids = await this.db
      .selectFrom('page_admins')
      .select('page_id')
      .where('user_id', '=', userId)
      .orderBy('page_id', 'desc')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(
      await this.db
        .selectFrom('page_admins')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .execute(),
    );
    const rows = await this.findByIds(ids.map((r) => r.page_id));
    return { items: rows.sort((a, b) => b.id - a.id), total };
  }

  async followedBy(userId: number, req: PageRequest) {
    const ids = await this.db
      .selectFrom('page_follows')
      .select('page_id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('page_id', 'desc')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(
      await this.db
        .selectFrom('page_follows')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .execute(),
    );
    const byId = new Map((await this.findByIds(ids.map((r) => r.page_id))).map((p) => [p.id, p]));
    return { items: ids.flatMap((r) => (byId.has(r.page_id) ? [byId.get(r.page_id)!] : [])), total };
  }

  async discover(userId: number, q: string | null, req: PageRequest) {
    let base = this.db
      .selectFrom('pages as p')
      .where('p.privacy', '=', 'public')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('page_follows as f').select('f.page_id').whereRef('f.page_id', '=', 'p.id').where('f.user_id', '=', userId),
          ),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('page_admins as a').select('a.page_id').whereRef('a.page_id', '=', 'p.id').where('a.user_id', '=', userId),
          ),
        ),
      );
    if (q) base = base.where(containsText('p.name', q));
    const rows = await base
      .selectAll('p')
      .orderBy('p.followers_count', 'desc')
      .orderBy('p.id', 'desc')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(await base.select((eb) => eb.fn.countAll().as('n')).execute());
    return { items: rows.map(toPage), total };
  }

  async rolesOf(userId: number, pageIds: number[]) {
    if (pageIds.length === 0) return new Map<number, PageRole>();
    const rows = await this.db
      .selectFrom('page_admins')
      .select(['page_id', 'role'])
      .where('user_id', '=', userId)
      .where('page_id', 'in', pageIds)
      .execute();
    return new Map(rows.map((r) => [r.page_id, r.role as PageRole]));
  }

  async followsOf(userId: number, pageIds: number[]) {
    if (pageIds.length === 0) return new Set<number>();
    const rows = await this.db
      .selectFrom('page_follows')
      .select('page_id')
      .where('user_id', '=', userId)
      .where('page_id', 'in', pageIds)
      .execute();
    return new Set(rows.map((r) => r.page_id));
  }

  async follow(pageId: number, userId: number, at: Timestamp) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'pages', pageId);
      if (!(await insertIfAbsent(trx, 'page_follows', { page_id: pageId, user_id: userId, created_at: at }))) return false;
      await trx.updateTable('pages').set({ followers_count: sql`followers_count + 1` }).where('id', '=', pageId).execute();
      return true;
    });
  }

  async unfollow(pageId: number, userId: number) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'pages', pageId);
      const deleted = await trx.deleteFrom('page_follows').where('page_id', '=', pageId).where('user_id', '=', userId).executeTakeFirst();
      if (!affected(deleted)) return false;
      await trx.updateTable('pages').set({ followers_count: sql`followers_count - 1` }).where('id', '=', pageId).execute();
      return true;
    });
  }

  async followers(pageId: number, req: PageRequest) {
    const items = await this.db
      .selectFrom('page_follows')
      .select(['page_id', 'user_id', 'created_at'])
      .where('page_id', '=', pageId)
      .orderBy('created_at', 'desc')
      .orderBy('user_id', 'desc')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(
      await this.db
        .selectFrom('page_follows')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('page_id', '=', pageId)
        .execute(),
    );
    return { items, total };
  }

  async team(pageId: number, req: PageRequest) {
    const rows = await this.db
      .selectFrom('page_admins')
      .select(['page_id', 'user_id', 'role', 'created_at'])
      .where('page_id', '=', pageId)
      .orderBy(sql`case when role = 'admin' then 0 else 1 end`)
      .orderBy('created_at')
      .orderBy('user_id')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(
      await this.db
        .selectFrom('page_admins')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('page_id', '=', pageId)
        .execute(),
    );
    return { items: rows.map((r) => ({ ...r, role: r.role as PageRole })), total };
  }

  async setRole(pageId: number, userId: number, role: PageRole, at: Timestamp) {
    if (await insertIfAbsent(this.db, 'page_admins', { page_id: pageId, user_id: userId, role, created_at: at })) return 'added' as const;
    const updated = await this.db
      .updateTable('page_admins')
      .set({ role })
      .where('page_id', '=', pageId)
      .where('user_id', '=', userId)
      .where('role', '<>', role)
      .executeTakeFirst();
    return affected(updated) ? ('changed' as const) : ('unchanged' as const);
  }

  async removeMember(pageId: number, userId: number) {
    return affected(await this.db.deleteFrom('page_admins').where('page_id', '=', pageId).where('user_id', '=', userId).executeTakeFirst());
  }

  async countAdmins(pageId: number) {
    return count(
      await this.db
        .selectFrom('page_admins')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('page_id', '=', pageId)
        .where('role', '=', 'admin')
        .execute(),
    );
  }
}
