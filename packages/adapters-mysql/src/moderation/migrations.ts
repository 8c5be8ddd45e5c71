import type { ColumnDefinitionBuilder } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Reports and their votes, warnings and bans, the action log, elections, and the feature-suggestion board. */
const moderationTables: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');

    await tableOptions(withId(db.schema.createTable('reports')), dialect)
      .addColumn('reporter_id', 'integer', users)
      // No foreign key: a report outlives its post, which the decision may remove.
      .addColumn('post_id', 'integer')
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('target_user_id', 'integer', users)
      .addColumn('reason', 'varchar(32)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('post_content', 'text')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('open_key', 'varchar(32)')
      .addColumn('votes_remove', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('votes_warn', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('votes_keep', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('resolution', 'varchar(16)')
      .addColumn('resolved_by', 'integer')
      .addColumn('resolved_at', TIMESTAMP)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      // One pending report per reporter and target (NULL once it is no longer pending: not unique).
      .addUniqueConstraint('reports_one_open', ['reporter_id', 'open_key'])
      .execute();
    // The moderators' queue of a status, and a reporter's own reports, newest first.
    await db.schema.createIndex('reports_queue').on('reports').columns(['status', 'id']).execute();
    await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'status', 'id']).execute();
    // The other pending reports of a removed post.
    await db.schema.createIndex('reports_post').on('reports').columns(['post_id', 'status']).execute();

    await tableOptions(db.schema.createTable('report_votes'), dialect)
      .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
      .addColumn('voter_id', 'integer', users)
      .addColumn('vote', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('report_votes_pk', ['report_id', 'voter_id'])
      .execute();

    await tableOptions(withId(db.schema.createTable('user_warnings')), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('issued_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('report_id', 'integer')
      .addColumn('reason', 'varchar(600)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // Counting an account's recent warnings; listing them newest first.
    await db.schema.createIndex('user_warnings_recent').on('user_warnings').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('user_warnings_user').on('user_warnings').columns(['user_id', 'id']).execute();

    await tableOptions(withId(db.schema.createTable('user_bans')), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('banned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('reason', 'varchar(700)', (c) => c.notNull())
      .addColumn('is_permanent', 'integer', flag)
      .addColumn('expires_at', TIMESTAMP)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // The ban check of every authenticated request reads an account's few bans through this.
    await db.schema.createIndex('user_bans_user').on('user_bans').columns(['user_id', 'id']).execute();

    await tableOptions(withId(db.schema.createTable('moderation_actions')), dialect)
      .addColumn('moderator_id', 'integer', users)
      .addColumn('action_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('target_user_id', 'integer', users)
      .addColumn('report_id', 'integer')
      .addColumn('post_id', 'integer')
      .addColumn('reason', 'varchar(600)', (c) => c.notNull())
      .addColumn('by_vote', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();

    await tableOptions(withId(db.schema.createTable('moderator_candidacies')), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('motivation', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('open_user_id', 'integer')
      .addColumn('votes_for', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('votes_against', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('elected_at', TIMESTAMP)
      .addColumn('ended_at', TIMESTAMP)
      .addUniqueConstraint('moderator_candidacies_one_open', ['open_user_id'])
      .execute();
    await db.schema.createIndex('moderator_candidacies_status').on('moderator_candidacies').columns(['status', 'id']).execute();

    await tableOptions(db.schema.createTable('moderator_votes'), dialect)
      .addColumn('candidacy_id', 'integer', (c) => c.notNull().references('moderator_candidacies.id').onDelete('cascade'))
      .addColumn('voter_id', 'integer', users)
      .addColumn('vote', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('moderator_votes_pk', ['candidacy_id', 'voter_id'])
      .execute();

    // The moderators list reads the accounts `isModerator` holds for: two index ranges, one per flag.
    await db.schema.createIndex('users_moderators').on('users').columns(['is_moderator', 'id']).execute();
    await db.schema.createIndex('users_admins').on('users').columns(['is_admin', 'id']).execute();

    await tableOptions(withId(db.schema.createTable('feature_suggestions')), dialect)
      .addColumn('user_id', 'integer', users)
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('admin_response', 'text')
      .addColumn('votes_up', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('votes_down', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // popular (score), planned and done (status then score); recent reads the primary key backwards.
    await db.schema.createIndex('feature_suggestions_score').on('feature_suggestions').columns(['score', 'id']).execute();
    await db.schema.createIndex('feature_suggestions_status').on('feature_suggestions').columns(['status', 'score', 'id']).execute();

    await tableOptions(db.schema.createTable('feature_suggestion_votes'), dialect)
      .addColumn('suggestion_id', 'integer', (c) => c.notNull().references('feature_suggestions.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('vote', 'integer', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('feature_suggestion_votes_pk', ['suggestion_id', 'user_id'])
      .execute();

    await tableOptions(withId(db.schema.createTable('feature_suggestion_comments')), dialect)
      .addColumn('suggestion_id', 'integer', (c) => c.notNull().references('feature_suggestions.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('feature_suggestion_comments_thread')
      .on('feature_suggestion_comments')
      .columns(['suggestion_id', 'id'])
      .execute();
  },
};

/** The moderation context's migrations, contributed by its feature module (docs/decisions/0008). */
/**
 * Reports name the kind of post they are about (`post`, `group`, `page`): group and page posts have
 * ids of their own. Existing reports are about wall posts or accounts: `post`.
 */
const reportedPostTypes: PlazaMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('reports')
      .addColumn('post_type', 'varchar(16)', (c) => c.notNull().defaultTo('post'))
      .execute();
    await dropReportsPostIndex(db, dialect);
    await db.schema.createIndex('reports_post').on('reports').columns(['post_id', 'post_type', 'status']).execute();
  },
  async down(db, dialect) {
    await dropReportsPostIndex(db, dialect);
    await db.schema.createIndex('reports_post').on('reports').columns(['post_id', 'status']).execute();
    await db.schema.alterTable('reports').dropColumn('post_type').execute();
  },
};

/** `DROP INDEX … ON table` is MySQL's form; SQLite names the index alone. */
function dropReportsPostIndex(db: Parameters<PlazaMigration['up']>[0], dialect: Parameters<PlazaMigration['up']>[1]) {
  const drop = db.schema.dropIndex('reports_post');
  return (dialect === 'mysql' ? drop.on('reports') : drop).execute();
}

/**
 * Suspensions from the admin panel (docs/decisions/0105): one row per suspended account, its primary
 * key what the token lookup probes on every request. Reports by the account their decision falls on,
 * for the panel's user page (MySQL indexes the foreign key alone; SQLite would scan).
 */
const suspensions: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('user_suspensions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('suspended_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('reason', 'varchar(600)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reports_target').on('reports').columns(['target_user_id', 'id']).execute();
  },
  async down(db, dialect) {
    const drop = db.schema.dropIndex('reports_target');
    await (dialect === 'mysql' ? drop.on('reports') : drop).execute();
    await db.schema.dropTable('user_suspensions').execute();
  },
};

export const MODERATION_MIGRATIONS: PlazaMigrations = {
  '20261122_moderation_tables': moderationTables,
  '20261122_moderation_tables_post_type': reportedPostTypes,
  '20261127_moderation_suspensions': suspensions,
};
