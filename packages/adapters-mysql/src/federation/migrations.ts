import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { sanitizeRemoteHtml } from '@plaza/domain/federation';
import type { SqlDialect } from '../dialect.js';
import type { PlazaMigration } from '../migrations/helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Up to 16 MB on MySQL (a queued inbox activity may be 1 MB of JSON); SQLite's text has no limit. */
const longText = (dialect: SqlDialect) => (dialect === 'mysql' ? sql`mediumtext` : sql`text`);
/** URLs that are keys: 512 characters fit an InnoDB index in utf8mb4. */
const URL_KEY = 'varchar(512)';
const URL = 'varchar(2048)';

/** Key pairs, remote actors, remote follows both ways, remote posts, and Fedify's store and queue. */
const federationTables: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');

    await tableOptions(db.schema.createTable('federation_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => users(c).primaryKey())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('private_jwk', 'text', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();

    await tableOptions(db.schema.createTable('remote_actors'), dialect)
      .addColumn('actor_url', URL_KEY, (c) => c.primaryKey())
      .addColumn('inbox_url', URL, (c) => c.notNull())
      .addColumn('shared_inbox_url', URL)
      .addColumn('outbox_url', URL)
      .addColumn('username', 'varchar(255)', (c) => c.notNull())
      .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('domain', 'varchar(255)', (c) => c.notNull())
      .addColumn('avatar', URL)
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('profile_url', URL, (c) => c.notNull())
      .addColumn('fetched_at', TIMESTAMP, (c) => c.notNull())
      .execute();

    await tableOptions(db.schema.createTable('remote_followers'), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('follow_id', URL, (c) => c.notNull())
      .addColumn('followed_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('remote_followers_pk', ['user_id', 'actor_url'])
      .execute();
    // A user's followers newest first.
    await db.schema.createIndex('remote_followers_recent').on('remote_followers').columns(['user_id', 'followed_at']).execute();

    await tableOptions(db.schema.createTable('remote_following'), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('follow_id', URL, (c) => c.notNull())
      .addColumn('accepted', 'integer', flag)
      .addColumn('followed_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('remote_following_pk', ['user_id', 'actor_url'])
      .execute();
    await db.schema.createIndex('remote_following_recent').on('remote_following').columns(['user_id', 'followed_at']).execute();
    // Accept(Follow) names the actor and our Follow (a handful of rows per actor); "is this actor
    // followed here" and the feed's join read the actor alone.
    await db.schema.createIndex('remote_following_actor').on('remote_following').columns(['actor_url']).execute();

    await tableOptions(withId(db.schema.createTable('remote_posts')), dialect)
      .addColumn('object_id', URL_KEY, (c) => c.notNull().unique())
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('url', URL, (c) => c.notNull())
      .addColumn('content', longText(dialect), (c) => c.notNull())
      .addColumn('media_url', URL)
      .addColumn('media_type', 'varchar(8)')
      .addColumn('published_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // The feed joins a user's followed actors to their posts, newest published first.
    await db.schema.createIndex('remote_posts_actor').on('remote_posts').columns(['actor_url', 'published_at', 'id']).execute();

    await tableOptions(db.schema.createTable('federation_kv'), dialect)
      .addColumn('key_hash', 'char(64)', (c) => c.primaryKey())
      .addColumn('value', longText(dialect), (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('federation_kv_expiry').on('federation_kv').columns(['expires_at']).execute();

    await tableOptions(withId(db.schema.createTable('federation_queue')), dialect)
      .addColumn('channel', 'varchar(32)', (c) => c.notNull())
      .addColumn('payload', longText(dialect), (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('due_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('leased_until', TIMESTAMP)
      .addColumn('last_error', 'varchar(1000)')
      .execute();
    // Workers claim the oldest due messages.
    await db.schema.createIndex('federation_queue_due').on('federation_queue').columns(['due_at', 'id']).execute();
  },
};

/**
 * Domain blocks (docs/decisions/0106), and dead deliveries: a message the worker gave up on stays,
 * with `dead_at`, for an administrator to retry or discard. Workers claim live messages through an
 * index that starts with `dead_at`, so dead rows never slow the claim down.
 */
const domainBlocks: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('domain_blocks'), dialect)
      .addColumn('domain', 'varchar(253)', (c) => c.primaryKey())
      .addColumn('severity', 'varchar(8)', (c) => c.notNull())
      .addColumn('reason', 'varchar(500)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.alterTable('federation_queue').addColumn('dead_at', TIMESTAMP).execute();
    await db.schema.createIndex('federation_queue_live_due').on('federation_queue').columns(['dead_at', 'due_at', 'id']).execute();
  },
};

/**
 * Remote authors on local posts (docs/decisions/0205): a comment may be a remote actor's reply
 * (`user_id` null, `remote_actor_url` and the Note's `remote_object_id` set, unique so one Note is one
 * comment however often it is delivered); likes and boosts of remote actors have rows of their own,
 * one per post and actor, named by the activity id an Undo names.
 */
const remoteInteractions: PlazaMigration = {
  async up(db, dialect) {
    if (dialect === 'mysql') {
      await sql`alter table comments modify user_id integer null`.execute(db);
    } else {
      await nullableCommentAuthorOnSqlite(db);
    }
    await db.schema.alterTable('comments').addColumn('remote_actor_url', URL_KEY).execute();
    await db.schema.alterTable('comments').addColumn('remote_object_id', URL_KEY).execute();
    await db.schema.createIndex('comments_remote_object').on('comments').columns(['remote_object_id']).unique().execute();
    // Delete(Person) removes an actor's comments.
    await db.schema.createIndex('comments_remote_actor').on('comments').columns(['remote_actor_url']).execute();

    const post = (c: ColumnDefinitionBuilder) => c.notNull().references('posts.id').onDelete('cascade');
    await tableOptions(db.schema.createTable('remote_post_reactions'), dialect)
      .addColumn('post_id', 'integer', post)
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('activity_id', URL_KEY, (c) => c.notNull().unique())
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('remote_post_reactions_pk', ['post_id', 'actor_url'])
      .execute();
    await db.schema.createIndex('remote_post_reactions_actor').on('remote_post_reactions').columns(['actor_url']).execute();

    await tableOptions(db.schema.createTable('remote_shares'), dialect)
      .addColumn('post_id', 'integer', post)
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('activity_id', URL_KEY, (c) => c.notNull().unique())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('remote_shares_pk', ['post_id', 'actor_url'])
      .execute();
    await db.schema.createIndex('remote_shares_actor').on('remote_shares').columns(['actor_url']).execute();

    // Remote HTML stored before the allowlist existed goes through it once (new rows are sanitised as they arrive).
    for (let after = 0; ; ) {
      const rows = await db.selectFrom('remote_posts').select(['id', 'content']).where('id', '>', after).orderBy('id').limit(500).execute();
      if (rows.length === 0) break;
      for (const r of rows) {
        const clean = sanitizeRemoteHtml(r.content);
        if (clean !== r.content) await db.updateTable('remote_posts').set({ content: clean }).where('id', '=', r.id).execute();
      }
      after = rows[rows.length - 1].id;
    }
    const actors = await db.selectFrom('remote_actors').select(['actor_url', 'summary']).execute();
    for (const a of actors) {
      const clean = sanitizeRemoteHtml(a.summary);
      if (clean !== a.summary) await db.updateTable('remote_actors').set({ summary: clean }).where('actor_url', '=', a.actor_url).execute();
    }
  },
};

/**
 * SQLite cannot drop a NOT NULL: the table is rebuilt from its own stored definition (whatever
 * columns later migrations added), with `user_id` nullable, its rows and its indexes. The copy's
 * self-reference (parent_id) names the copy, so dropping the old table cascades into nothing.
 */
async function nullableCommentAuthorOnSqlite(db: Kysely<any>): Promise<void> {
  const rows = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'comments'`.execute(db);
  const table = rows.rows.find((r) => r.type === 'table')?.sql;
  if (!table) throw new Error('comments table not found');
  const indexes = rows.rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql as string);
  const nullable = table.replace(/("user_id"\s+integer)\s+not null/i, '$1');
  if (nullable === table) throw new Error('comments.user_id definition not recognised');
  const copy = nullable
    .replace(/^create table\s+"?comments"?/i, 'create table "comments_rebuilt"')
    .replace(/references\s+"comments"/gi, 'references "comments_rebuilt"');
  await sql.raw(copy).execute(db);
  await sql`insert into comments_rebuilt select * from comments`.execute(db);
  await sql`drop table comments`.execute(db);
  await sql`alter table comments_rebuilt rename to comments`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}

/**
 * Follow approval (docs/decisions/0210): a remote Follow of a private account waits here for the
 * account's answer. One per account and actor; the pending list reads a user's newest first, an
 * Undo naming the Follow by id reads the actor's.
 */
const followRequests: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(withId(db.schema.createTable('remote_follow_requests')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('follow_id', URL, (c) => c.notNull())
      .addColumn('requested_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('remote_follow_requests_once', ['user_id', 'actor_url'])
      .execute();
    await db.schema.createIndex('remote_follow_requests_recent').on('remote_follow_requests').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('remote_follow_requests_actor').on('remote_follow_requests').columns(['actor_url']).execute();
  },
};

/**
 * Reactions and replies of local users to remote Notes (docs/decisions/0245): a reaction is one per
 * user and Note (its activity id is what the Undo names); a reply keeps its text, so its Note has an
 * author and an id (`outbound_remote_replies.id`).
 */
const outboundInteractions: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
    await tableOptions(db.schema.createTable('outbound_remote_reactions'), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('object_id', URL_KEY, (c) => c.notNull())
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('activity_id', URL_KEY, (c) => c.notNull().unique())
      .addColumn('reacted_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('outbound_remote_reactions_pk', ['user_id', 'object_id'])
      .execute();
    await tableOptions(withId(db.schema.createTable('outbound_remote_replies')), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('object_id', URL_KEY, (c) => c.notNull())
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('audience', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbound_remote_replies_user').on('outbound_remote_replies').columns(['user_id', 'id']).execute();
  },
};

/** A reply to a remote Note can be edited (docs/decisions/0246): when, for its Note's `updated`. */
const replyEdits: PlazaMigration = {
  async up(db) {
    await db.schema.alterTable('outbound_remote_replies').addColumn('updated_at', TIMESTAMP).execute();
  },
};

/**
 * Remote reactions on local wall comments (docs/decisions/0241): one per comment and actor, named by
 * the activity id an Undo names, as on posts. The comment's removal (with the thread below it, by the
 * parent_id cascade) takes them along.
 */
const remoteCommentReactions: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('remote_comment_reactions'), dialect)
      .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
      .addColumn('actor_url', URL_KEY, (c) => c.notNull())
      .addColumn('activity_id', URL_KEY, (c) => c.notNull().unique())
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('remote_comment_reactions_pk', ['comment_id', 'actor_url'])
      .execute();
    await db.schema.createIndex('remote_comment_reactions_actor').on('remote_comment_reactions').columns(['actor_url']).execute();
  },
};

/** The federation context's migrations, contributed by its feature module (docs/decisions/0008). */
export const FEDERATION_MIGRATIONS: PlazaMigrations = {
  '20261122_federation_tables': federationTables,
  '20261127_federation_domain_blocks': domainBlocks,
  '20261127_inbound_remote_interactions': remoteInteractions,
  '20261127_outbound_follow_requests': followRequests,
  '20261127_fedremote_outbound_interactions': outboundInteractions,
  '20261127_fedreply_reply_edits': replyEdits,
  '20261127_fedout_remote_comment_reactions': remoteCommentReactions,
};
