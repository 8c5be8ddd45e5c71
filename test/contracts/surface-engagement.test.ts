import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
  InMemorySurfaceEngagementRepository,
  surfaceEngagementContract,
} from '@plaza/domain/content/testing';
import type { SurfacePostType } from '@plaza/domain/content';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostEngagementRepository, SqlPostRepository, SqlSurfaceEngagementRepository } from '@plaza/adapters-mysql/content';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();
const CREATED = '2026-02-01 09:00:00';

surfaceEngagementContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const store = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const surfaces = new InMemorySurfaceEngagementRepository(store);
  let nextId = 1;
  return {
    users,
    posts: new InMemoryPostRepository(store),
    engagement: new InMemoryPostEngagementRepository(store),
    surfaces,
    async publish(type: SurfacePostType, authorId: number, o: { content: string; isPrivate?: boolean; insiders?: number[] }) {
      const id = nextId++;
      const home = nextId++;
      surfaces.posts.set(`${type}:${id}`, {
        record: {
          post_type: type,
          id,
          user_id: authorId,
          group_id: type === 'group' ? home : null,
          page_id: type === 'page' ? home : null,
          content: o.content,
          media: [],
          media_type: null,
          tags: [],
          likes_count: 0,
          comments_count: 0,
          created_at: CREATED,
          updated_at: null,
        },
        visibleTo: (userId) => !o.isPrivate || (o.insiders ?? []).includes(userId),
      });
      return id;
    },
  };
});

surfaceEngagementContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    posts: new SqlPostRepository(db),
    engagement: new SqlPostEngagementRepository(db, dialect),
    surfaces: new SqlSurfaceEngagementRepository(db),
    // The groups' and pages' rows, written directly: the port only reads them.
    async publish(type: SurfacePostType, authorId: number, o: { content: string; isPrivate?: boolean; insiders?: number[] }) {
      const privacy = o.isPrivate ? 'private' : 'public';
      if (type === 'group') {
        const group = await db
          .insertInto('community_groups')
          .values({ name: 'G', description: '', avatar: null, cover_image: null, privacy, creator_id: authorId, created_at: CREATED, updated_at: null })
          .executeTakeFirstOrThrow();
        const groupId = Number(group.insertId);
        for (const userId of o.insiders ?? []) {
          await db.insertInto('group_members').values({ group_id: groupId, user_id: userId, role: 'member', joined_at: CREATED }).execute();
        }
        const post = await db
          .insertInto('group_posts')
          .values({ group_id: groupId, user_id: authorId, content: o.content, media: '[]', media_type: null, tags: '[]', created_at: CREATED, updated_at: null })
          .executeTakeFirstOrThrow();
        return Number(post.insertId);
      }
      const pageRow = await db
        .insertInto('pages')
        .values({
          name: 'P',
          description: '',
          category: '',
          avatar: null,
          cover_image: null,
          location: '',
          website: '',
          privacy,
          social_twitter: '',
          social_mastodon: '',
          social_instagram: '',
          social_tiktok: '',
          social_facebook: '',
          social_bluesky: '',
          created_by: authorId,
          created_at: CREATED,
          updated_at: null,
        })
        .executeTakeFirstOrThrow();
      const pageId = Number(pageRow.insertId);
      for (const userId of o.insiders ?? []) {
        await db.insertInto('page_admins').values({ page_id: pageId, user_id: userId, role: 'editor', created_at: CREATED }).execute();
      }
      const post = await db
        .insertInto('page_posts')
        .values({ page_id: pageId, user_id: authorId, content: o.content, media: null, media_type: null, created_at: CREATED, updated_at: null })
        .executeTakeFirstOrThrow();
      return Number(post.insertId);
    },
  };
});
