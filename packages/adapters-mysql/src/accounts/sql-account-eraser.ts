import type { Timestamp } from '@plaza/domain';
import type { AccountEraser } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

/** Ids per statement when recounting: keeps every `in (…)` list short. */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Erases an account across every context's tables (docs/decisions/0090), inside the caller's unit of
 * work. Deletes are explicit rather than left to `on delete cascade`: the account row stays as a
 * tombstone (others' message threads reference it), and the counters of other people's posts and
 * comments must follow what goes.
 */
export class SqlAccountEraser implements AccountEraser {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    // First statement of the unit: two erasures of one account run one after the other.
    await lockRowForUpdate(db, this.dialect, 'users', userId);
    const user = await db.selectFrom('users').select(['id', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
    if (!user || user.deleted_at !== null) return;

    for (const table of ['access_tokens', 'password_resets', 'two_factor_recovery_codes', 'user_preferences', 'account_deletion_requests', 'mail_outbox'] as const) {
      await db.deleteFrom(table).where('user_id', '=', userId).execute();
    }

    // Other people's posts and comments whose counters change, read before their rows go.
    const touchedPosts = new Set<number>();
    for (const q of [
      db.selectFrom('post_reactions').select('post_id').where('user_id', '=', userId),
      db.selectFrom('shares').select('post_id').where('user_id', '=', userId),
      db.selectFrom('comments').select('post_id').where('user_id', '=', userId),
    ]) {
      for (const r of await q.execute()) touchedPosts.add(r.post_id);
    }
    const touchedComments = (
      await db.selectFrom('comment_reactions').select('comment_id').where('user_id', '=', userId).where('comment_type', '=', 'post').execute()
    ).map((r) => r.comment_id);

    // Own posts, with everything attached to them (comment reactions have no foreign key).
    const ownPosts = db.selectFrom('posts').select('id').where('user_id', '=', userId);
    await db
      .deleteFrom('comment_reactions')
      .where('comment_type', '=', 'post')
      .where('comment_id', 'in', db.selectFrom('comments').select('id').where('post_id', 'in', ownPosts))
      .execute();
    for (const table of ['comment_reactions', 'post_reactions', 'shares', 'bookmarks', 'wall_entries', 'stories'] as const) {
      await db.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await db.deleteFrom('posts').where('user_id', '=', userId).execute();

    // Comments on other people's posts: those nobody answered go; those others replied to stay in
    // the thread, emptied, under the tombstone. Leaves go first, then the comments they answered.
    for (;;) {
      const leaves = await db
        .selectFrom('comments as c')
        .select('c.id')
        .where('c.user_id', '=', userId)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('comments as r').select('r.id').whereRef('r.parent_id', '=', 'c.id'))))
        .execute();
      if (leaves.length === 0) break;
      for (const ids of chunks(leaves.map((l) => l.id))) {
        await db.deleteFrom('comment_reactions').where('comment_type', '=', 'post').where('comment_id', 'in', ids).execute();
        await db.deleteFrom('comments').where('id', 'in', ids).execute();
      }
    }
    await db.updateTable('comments').set({ content: '', updated_at: at }).where('user_id', '=', userId).execute();

    for (const ids of chunks([...touchedPosts])) {
      await db
        .updateTable('posts')
        .set({
          likes_count: sql`(select count(*) from post_reactions where post_reactions.post_id = posts.id)`,
          comments_count: sql`(select count(*) from comments where comments.post_id = posts.id)`,
          shares_count: sql`(select count(*) from shares where shares.post_id = posts.id)`,
        })
        .where('id', 'in', ids)
        .execute();
    }
    for (const ids of chunks(touchedComments)) {
      await db
        .updateTable('comments')
        .set({ reactions_count: sql`(select count(*) from comment_reactions where comment_reactions.comment_type = 'post' and comment_reactions.comment_id = comments.id)` })
        .where('id', 'in', ids)
        .execute();
    }

    // Relations and notifications, both ways.
    await db.deleteFrom('follows').where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)])).execute();
    await db.deleteFrom('friend_requests').where((eb) => eb.or([eb('sender_id', '=', userId), eb('receiver_id', '=', userId)])).execute();
    await db.deleteFrom('notifications').where((eb) => eb.or([eb('user_id', '=', userId), eb('from_user_id', '=', userId)])).execute();
    await db.deleteFrom('typing_indicators').where('user_id', '=', userId).execute();

    // Messaging: the messages stay in the other side's thread; the account's own side goes.
    await db.deleteFrom('private_message_reactions').where('user_id', '=', userId).execute();
    await db.deleteFrom('group_message_reactions').where('user_id', '=', userId).execute();
    await db.deleteFrom('conversations').where('user_id', '=', userId).execute();
    await db.deleteFrom('message_group_requests').where((eb) => eb.or([eb('user_id', '=', userId), eb('requested_by', '=', userId)])).execute();
    const memberships = await db.selectFrom('message_group_members').select(['group_id', 'role']).where('user_id', '=', userId).execute();
    await db.deleteFrom('message_group_members').where('user_id', '=', userId).execute();
    for (const m of memberships) await this.keepGroupAdministered(m.group_id);

    // The tombstone: no name, address, password, profile or flag of the person is left.
    await db
      .updateTable('users')
      .set({
        username: `deleted_${userId}`,
        email: `deleted_${userId}@deleted.invalid`,
        password_hash: '',
        display_name: null,
        avatar: null,
        banner: null,
        bio: null,
        cause: null,
        website: null,
        twitter: null,
        instagram: null,
        facebook: null,
        tiktok: null,
        mastodon: null,
        bluesky: null,
        location: null,
        github: null,
        militant_badge: null,
        status_emoji: null,
        status_text: null,
        is_admin: 0,
        is_technician: 0,
        is_moderator: 0,
        is_private: 0,
        totp_secret: null,
        totp_enabled: 0,
        totp_last_step: null,
        last_active_at: null,
        deleted_at: at,
        updated_at: at,
      })
      .where('id', '=', userId)
      .execute();
  }

  /** A group left without an admin gets its oldest member as admin; a group left empty goes. */
  private async keepGroupAdministered(groupId: number): Promise<void> {
    const members = await this.db
      .selectFrom('message_group_members')
      .select(['user_id', 'role'])
      .where('group_id', '=', groupId)
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    if (members.length === 0) {
      await this.db.deleteFrom('message_groups').where('id', '=', groupId).execute();
      return;
    }
    if (!members.some((m) => m.role === 'admin')) {
      await this.db.updateTable('message_group_members').set({ role: 'admin' }).where('group_id', '=', groupId).where('user_id', '=', members[0].user_id).execute();
    }
  }
}
