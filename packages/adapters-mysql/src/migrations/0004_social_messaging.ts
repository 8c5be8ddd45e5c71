import type { PlazaMigration } from './helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from './helpers.js';

/** Friend requests, private messages, messaging groups and typing signals. */
export const socialMessaging: PlazaMigration = {
  async up(db, dialect) {
    // Accounts a user follows, newest first.
    await db.schema.createIndex('follows_follower').on('follows').columns(['follower_id', 'created_at']).execute();

    await tableOptions(withId(db.schema.createTable('friend_requests')), dialect)
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('receiver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('responded_at', TIMESTAMP)
      .addUniqueConstraint('friend_requests_pair', ['sender_id', 'receiver_id'])
      .execute();
    // Friends and pending requests of a user, from either side.
    await db.schema
      .createIndex('friend_requests_receiver')
      .on('friend_requests')
      .columns(['receiver_id', 'status', 'created_at'])
      .execute();
    await db.schema.createIndex('friend_requests_sender').on('friend_requests').columns(['sender_id', 'status', 'created_at']).execute();

    await tableOptions(withId(db.schema.createTable('private_messages')), dialect)
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('receiver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The pair, smaller id first, so one index serves the thread whoever sent each message.
      .addColumn('user_low', 'integer', (c) => c.notNull())
      .addColumn('user_high', 'integer', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('media', 'varchar(512)')
      .addColumn('media_type', 'varchar(16)')
      .addColumn('parent_id', 'integer')
      .addColumn('is_read', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('edited_at', TIMESTAMP)
      .addColumn('expires_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('private_messages_pair').on('private_messages').columns(['user_low', 'user_high', 'id']).execute();
    await db.schema
      .createIndex('private_messages_unread')
      .on('private_messages')
      .columns(['receiver_id', 'is_read', 'sender_id'])
      .execute();
    await db.schema.createIndex('private_messages_expires').on('private_messages').columns(['expires_at']).execute();

    // One row per side of a conversation.
    await tableOptions(db.schema.createTable('conversations'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('peer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('last_message_id', 'integer')
      .addColumn('last_message_at', TIMESTAMP)
      .addColumn('cleared_before_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_delete_time', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('conversations_pk', ['user_id', 'peer_id'])
      .execute();
    await db.schema.createIndex('conversations_recent').on('conversations').columns(['user_id', 'last_message_at']).execute();

    await tableOptions(withId(db.schema.createTable('private_message_reactions')), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull().references('private_messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reaction_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('private_message_reactions_once', ['message_id', 'user_id'])
      .execute();

    await tableOptions(withId(db.schema.createTable('message_groups')), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('avatar', 'varchar(512)')
      .addColumn('creator_id', 'integer', (c) => c.notNull())
      .addColumn('auto_delete_time', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_message_id', 'integer')
      .addColumn('last_activity_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();

    await tableOptions(db.schema.createTable('message_group_members'), dialect)
      .addColumn('group_id', 'integer', (c) => c.notNull().references('message_groups.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('joined_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('message_group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('message_group_members_user').on('message_group_members').columns(['user_id', 'group_id']).execute();

    await tableOptions(withId(db.schema.createTable('message_group_requests')), dialect)
      .addColumn('group_id', 'integer', (c) => c.notNull().references('message_groups.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('requested_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('message_group_requests_once', ['group_id', 'user_id'])
      .execute();

    await tableOptions(withId(db.schema.createTable('group_messages')), dialect)
      .addColumn('group_id', 'integer', (c) => c.notNull().references('message_groups.id').onDelete('cascade'))
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('media', 'varchar(512)')
      .addColumn('media_type', 'varchar(16)')
      .addColumn('parent_id', 'integer')
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('edited_at', TIMESTAMP)
      .addColumn('expires_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('group_messages_group').on('group_messages').columns(['group_id', 'id']).execute();
    await db.schema.createIndex('group_messages_expires').on('group_messages').columns(['expires_at']).execute();

    await tableOptions(withId(db.schema.createTable('group_message_reactions')), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull().references('group_messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reaction_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addUniqueConstraint('group_message_reactions_once', ['message_id', 'user_id'])
      .execute();

    await tableOptions(db.schema.createTable('typing_indicators'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('target_type', 'varchar(8)', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('typing_indicators_pk', ['user_id', 'target_type', 'target_id'])
      .execute();
    await db.schema
      .createIndex('typing_indicators_target')
      .on('typing_indicators')
      .columns(['target_type', 'target_id', 'expires_at'])
      .execute();
  },
};
