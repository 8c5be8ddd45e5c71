import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryCommentRepository, InMemoryContentStore, InMemoryNotificationInbox } from '@plaza/domain/content/testing';
import { canSeeGroupContent } from '@plaza/domain/groups';
import {
  groupsContract,
  InMemoryGroupCommentRepository,
  InMemoryGroupPostRepository,
  InMemoryGroupRepository,
  InMemoryGroupStore,
} from '@plaza/domain/groups/testing';
import { InMemoryNotificationRepository } from '@plaza/domain/notifications/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository } from '@plaza/adapters-mysql/content';
import { SqlGroupCommentRepository, SqlGroupPostRepository, SqlGroupRepository } from '@plaza/adapters-mysql/groups';
import { SqlNotificationInbox, SqlNotificationRepository } from '@plaza/adapters-mysql/notifications';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

groupsContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const content = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const commentReactions = new InMemoryCommentRepository(content);
  const store = new InMemoryGroupStore((ids) => {
    for (const [k, r] of content.commentReactions)
      if (r.comment_type === 'group' && ids.includes(r.comment_id)) content.commentReactions.delete(k);
  });
  const groups = new InMemoryGroupRepository(store);
  const notifications = new InMemoryNotificationRepository();
  const visible = (groupId: number, reader: { userId: number }) => {
    const g = store.groups.get(groupId);
    return (
      !!g &&
      canSeeGroupContent(g, { role: store.members.get(`${groupId}:${reader.userId}`)?.role ?? null, invited: false, requested: false })
    );
  };
  const posts = new InMemoryGroupPostRepository(store);
  return {
    users,
    groups,
    posts,
    comments: new InMemoryGroupCommentRepository(store),
    commentReactions,
    notifications,
    inbox: new InMemoryNotificationInbox(notifications, content, visible, (id) => store.groups.get(id)?.name ?? null),
    reports: {
      open: async (postId: number) => void posts.reported.add(postId),
      close: async (postId: number) => void posts.reported.delete(postId),
    },
  };
});

groupsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    groups: new SqlGroupRepository(db, dialect),
    posts: new SqlGroupPostRepository(db, dialect),
    comments: new SqlGroupCommentRepository(db, dialect),
    commentReactions: new SqlCommentRepository(db, dialect),
    notifications: new SqlNotificationRepository(db),
    inbox: new SqlNotificationInbox(db),
    reports: {
      async open(postId: number) {
        const post = await db.selectFrom('group_posts').select('user_id').where('id', '=', postId).executeTakeFirstOrThrow();
        const values = {
          reporter_id: post.user_id,
          user_id: null,
          target_user_id: post.user_id,
          reason: 'other',
          description: '',
          post_content: '',
          created_at: '2026-03-01 00:00:00',
        };
        // A wall post's report of the same id does not name the group post.
        await db
          .insertInto('reports')
          .values({ ...values, post_id: postId, post_type: 'post', status: 'pending', open_key: `post:${postId}` })
          .execute();
        await db
          .insertInto('reports')
          .values({ ...values, post_id: postId, post_type: 'group', status: 'pending', open_key: `group:${postId}` })
          .execute();
      },
      async close(postId: number) {
        await db
          .updateTable('reports')
          .set({ status: 'resolved', open_key: null })
          .where('post_id', '=', postId)
          .where('post_type', '=', 'group')
          .execute();
      },
    },
  };
});
