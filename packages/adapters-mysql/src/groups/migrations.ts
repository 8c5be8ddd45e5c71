import type { ColumnDefinitionBuilder } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { caseInsensitive, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Community groups, members, join requests, invitations, posts, their reactions and comments. */
const groupTables: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
    const groups = (c: ColumnDefinitionBuilder) => c.notNull().references('community_groups.id').onDelete('cascade');
    const count = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

    await tableOptions(withId(db.schema.createTable('community_groups')), dialect)
      .addColumn('name', 'varchar(100)', (c) => caseInsensitive(dialect)(c.notNull()))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('avatar', 'varchar(255)')
      .addColumn('cover_image', 'varchar(255)')
      .addColumn('privacy', 'varchar(16)', (c) => c.notNull())
      .addColumn('creator_id', 'integer', users)
      .addColumn('members_count', 'integer', count)
      .addColumn('posts_count', 'integer', count)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // discover: public groups, most members first.
    await db.schema.createIndex('community_groups_discover').on('community_groups').columns(['privacy', 'members_count', 'id']).execute();

    // `seq` orders members by joining (an auto-increment needs the primary key on MySQL: it is the key,
    // and (group_id, user_id) is unique).
    await tableOptions(db.schema.createTable('group_members'), dialect)
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('group_id', 'integer', groups)
      .addColumn('user_id', 'integer', users)
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('joined_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('group_members_one', ['group_id', 'user_id'])
      .execute();
    // A user's groups, newest membership first; the admins of a group.
    await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'seq']).execute();
    await db.schema.createIndex('group_members_role').on('group_members').columns(['group_id', 'role', 'seq']).execute();

    await tableOptions(withId(db.schema.createTable('group_join_requests')), dialect)
      .addColumn('group_id', 'integer', groups)
      .addColumn('user_id', 'integer', users)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('group_join_requests_one', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('group_join_requests_user').on('group_join_requests').columns(['user_id']).execute();

    await tableOptions(db.schema.createTable('group_invitations'), dialect)
      .addColumn('group_id', 'integer', groups)
      .addColumn('user_id', 'integer', users)
      .addColumn('invited_by', 'integer', users)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('group_invitations_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('group_invitations_user').on('group_invitations').columns(['user_id']).execute();

    await tableOptions(withId(db.schema.createTable('group_posts')), dialect)
      .addColumn('group_id', 'integer', groups)
      .addColumn('user_id', 'integer', users)
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('media', 'text', (c) => c.notNull())
      .addColumn('media_type', 'varchar(16)')
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('likes_count', 'integer', count)
      .addColumn('comments_count', 'integer', count)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // A group's posts newest first; an author's posts (account export and erasure).
    await db.schema.createIndex('group_posts_group').on('group_posts').columns(['group_id', 'id']).execute();
    await db.schema.createIndex('group_posts_user').on('group_posts').columns(['user_id', 'id']).execute();

    await tableOptions(db.schema.createTable('group_post_reactions'), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('group_posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('group_post_reactions_pk', ['post_id', 'user_id'])
      .execute();
    await db.schema.createIndex('group_post_reactions_user').on('group_post_reactions').columns(['user_id', 'post_id']).execute();

    await tableOptions(withId(db.schema.createTable('group_comments')), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('group_posts.id').onDelete('cascade'))
      // The post's group, copied: no foreign key, whose check would share-lock the group's row on every
      // comment (and deadlock with a post's deletion, which locks the group, then the post). The
      // comments go with their post, which goes with its group.
      .addColumn('group_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', users)
      // No foreign key to itself: a thread is deleted level by level, with its reactions, by the repository.
      .addColumn('parent_id', 'integer')
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // Roots and replies of a post's thread; an author's comments (export and erasure).
    await db.schema.createIndex('group_comments_post_parent').on('group_comments').columns(['post_id', 'parent_id', 'id']).execute();
    await db.schema.createIndex('group_comments_user').on('group_comments').columns(['user_id', 'id']).execute();
  },
};

/** The groups context's migrations, contributed by its feature module (docs/decisions/0008). */
export const GROUPS_MIGRATIONS: PlazaMigrations = {
  '20261122_groups_tables': groupTables,
};
