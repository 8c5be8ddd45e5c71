import type { AccountDataReader, ExportRow, ExportSection } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { toPostRecord } from '../content/sql-post-repository.js';
import type { Database } from '../database.js';

/** Rows per query: an export holds one batch in memory at a time, whatever the account's size. */
const BATCH = 500;

/** Reads one key-ordered batch after `after`; the stream stops at a short batch. */
async function* keyset<R>(page: (after: number) => Promise<R[]>, key: (row: R) => number): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const rows = await page(after);
    for (const row of rows) yield row;
    if (rows.length < BATCH) return;
    after = key(rows[rows.length - 1]);
  }
}


/** Every section of an export, each by keyset pages over an index that starts with the user's column. */
export class SqlAccountDataReader implements AccountDataReader {
  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: ExportSection): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'posts':
        return this.mapped(this.postRows(userId), (p) => ({ ...toPostRecord(p) }));
      case 'comments':
        return keyset(
          (after) => db.selectFrom('comments').selectAll().where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
          (r) => r.id,
        );
      case 'reactions':
        return keyset(
          (after) =>
            db.selectFrom('post_reactions').select(['post_id', 'reaction_type', 'created_at']).where('user_id', '=', userId).where('post_id', '>', after).orderBy('post_id').limit(BATCH).execute(),
          (r) => r.post_id,
        );
      case 'comment_reactions':
        return keyset(
          (after) =>
            db
              .selectFrom('comment_reactions')
              .select(['comment_type', 'comment_id', 'reaction_type', 'created_at'])
              .where('user_id', '=', userId)
              .where('comment_id', '>', after)
              .orderBy('comment_id')
              .orderBy('comment_type')
              .limit(BATCH)
              .execute(),
          (r) => r.comment_id,
        );
      case 'bookmarks':
        return keyset(
          (after) => db.selectFrom('bookmarks').select(['post_id', 'created_at']).where('user_id', '=', userId).where('post_id', '>', after).orderBy('post_id').limit(BATCH).execute(),
          (r) => r.post_id,
        );
      case 'shares':
        return keyset(
          (after) => db.selectFrom('shares').select(['post_id', 'created_at']).where('user_id', '=', userId).where('post_id', '>', after).orderBy('post_id').limit(BATCH).execute(),
          (r) => r.post_id,
        );
      case 'following':
        return keyset(
          (after) =>
            db
              .selectFrom('follows as f')
              .innerJoin('users as u', 'u.id', 'f.followee_id')
              .select(['f.followee_id as user_id', 'u.username', 'f.created_at'])
              .where('f.follower_id', '=', userId)
              .where('f.followee_id', '>', after)
              .orderBy('f.followee_id')
              .limit(BATCH)
              .execute(),
          (r) => r.user_id,
        );
      case 'followers':
        return keyset(
          (after) =>
            db
              .selectFrom('follows as f')
              .innerJoin('users as u', 'u.id', 'f.follower_id')
              .select(['f.follower_id as user_id', 'u.username', 'f.created_at'])
              .where('f.followee_id', '=', userId)
              .where('f.follower_id', '>', after)
              .orderBy('f.follower_id')
              .limit(BATCH)
              .execute(),
          (r) => r.user_id,
        );
      case 'friends':
        return this.friendRequests(userId, 'accepted');
      case 'friend_requests':
        return this.friendRequests(userId, 'pending');
      case 'messages':
        return this.messages(userId);
      case 'message_group_memberships':
        return keyset(
          (after) =>
            db
              .selectFrom('message_group_members as m')
              .innerJoin('message_groups as g', 'g.id', 'm.group_id')
              .select(['m.group_id', 'g.name', 'm.role', 'm.joined_at'])
              .where('m.user_id', '=', userId)
              .where('m.group_id', '>', after)
              .orderBy('m.group_id')
              .limit(BATCH)
              .execute(),
          (r) => r.group_id,
        );
      case 'group_messages':
        return keyset(
          (after) =>
            db
              .selectFrom('group_messages')
              .select(['id', 'group_id', 'content', 'media', 'media_type', 'parent_id', 'created_at', 'edited_at'])
              .where('sender_id', '=', userId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          (r) => r.id,
        );
      case 'stories':
        return keyset(
          (after) => db.selectFrom('stories').selectAll().where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
          (r) => r.id,
        );
      case 'notifications':
        return this.mapped(
          keyset(
            (after) => db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
            (r) => r.id,
          ),
          (n) => ({ ...n, is_read: Boolean(n.is_read) }),
        );
      case 'sessions':
        // Never the token hash: a session is listed by when it was created, used, and ended.
        return keyset(
          (after) =>
            db
              .selectFrom('access_tokens')
              .select(['id', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'])
              .where('user_id', '=', userId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          (r) => r.id,
        );
      case 'media':
        return this.media(userId);
    }
  }

  posts(userId: number) {
    return this.mapped(this.postRows(userId), (p) => {
      const r = toPostRecord(p);
      return { id: r.id, content: r.content, media: r.media, media_type: r.media_type, tags: r.tags, created_at: r.created_at, updated_at: r.updated_at };
    });
  }

  private postRows(userId: number) {
    return keyset(
      (after) => this.db.selectFrom('posts').selectAll().where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
      (r) => r.id,
    );
  }

  private async *mapped<A, B>(rows: AsyncIterable<A>, f: (a: A) => B): AsyncGenerator<B> {
    for await (const row of rows) yield f(row);
  }

  /** Accepted requests are friendships; pending ones are listed with their direction. */
  private async *friendRequests(userId: number, status: 'accepted' | 'pending'): AsyncGenerator<ExportRow> {
    for (const [mine, theirs, direction] of [
      ['sender_id', 'receiver_id', 'sent'],
      ['receiver_id', 'sender_id', 'received'],
    ] as const) {
      yield* keyset(
        (after) =>
          this.db
            .selectFrom('friend_requests as r')
            .innerJoin('users as u', 'u.id', `r.${theirs}`)
            .select(['r.id', `r.${theirs} as user_id`, 'u.username', 'r.created_at', 'r.responded_at'])
            .select((eb) => eb.val(direction).as('direction'))
            .where(`r.${mine}`, '=', userId)
            .where('r.status', '=', status)
            .where('r.id', '>', after)
            .orderBy('r.id')
            .limit(BATCH)
            .execute(),
        (r) => r.id,
      );
    }
  }

  /** What the user sent, then what they received: each pass follows one index. */
  private async *messages(userId: number): AsyncGenerator<ExportRow> {
    for (const [column, direction] of [
      ['sender_id', 'sent'],
      ['receiver_id', 'received'],
    ] as const) {
      yield* this.mapped(
        keyset(
          (after) =>
            this.db
              .selectFrom('private_messages')
              .select(['id', 'sender_id', 'receiver_id', 'content', 'media', 'media_type', 'parent_id', 'is_read', 'created_at', 'edited_at'])
              .where(column, '=', userId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          (r) => r.id,
        ),
        (m) => ({ ...m, is_read: Boolean(m.is_read), direction }),
      );
    }
  }

  /** The user's own files as stored (`value`), with the upload kind that resolves them: post media, stories, media sent in messages, avatar and banner. */
  private async *media(userId: number): AsyncGenerator<ExportRow> {
    const user = await this.db.selectFrom('users').select(['avatar', 'banner']).where('id', '=', userId).executeTakeFirst();
    for (const [source, value] of [
      ['avatar', user?.avatar],
      ['banner', user?.banner],
    ] as const) {
      if (value) yield { value, kind: 'avatar', source };
    }
    for await (const p of this.postRows(userId)) {
      for (const m of toPostRecord(p).media) yield { value: m, kind: 'posts', source: `post:${p.id}` };
    }
    for await (const s of this.rows(userId, 'stories')) yield { value: String(s.media), kind: 'stories', source: `story:${s.id}` };
    for await (const m of keyset(
      (after) => this.db.selectFrom('private_messages').select(['id', 'media']).where('sender_id', '=', userId).where('media', 'is not', null).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
      (r) => r.id,
    )) {
      yield { value: m.media!, kind: 'messages', source: `message:${m.id}` };
    }
    for await (const m of keyset(
      (after) => this.db.selectFrom('group_messages').select(['id', 'media']).where('sender_id', '=', userId).where('media', 'is not', null).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
      (r) => r.id,
    )) {
      yield { value: m.media!, kind: 'messages', source: `group_message:${m.id}` };
    }
  }
}
