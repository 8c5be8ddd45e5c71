import type { UserRepository } from '@plaza/domain/accounts';
import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { type PostRecord, wallPostStore } from '@plaza/domain/content';
import {
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
  surfacePostStoreContract,
} from '@plaza/domain/content/testing';
import { type GroupPostRecord, groupPostStore } from '@plaza/domain/groups';
import {
  InMemoryGroupCommentRepository,
  InMemoryGroupPostRepository,
  InMemoryGroupRepository,
  InMemoryGroupStore,
} from '@plaza/domain/groups/testing';
import { type PagePostRecord, type PageRepository, pagePostStore } from '@plaza/domain/pages';
import { aNewPage, InMemoryPagePostRepository, InMemoryPageRepository } from '@plaza/domain/pages/testing';
import { ManualClock } from '@plaza/domain';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository, SqlPostEngagementRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlGroupCommentRepository, SqlGroupPostRepository, SqlGroupRepository } from '@plaza/adapters-mysql/groups';
import { SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';
import { aGroup } from '../support/surface-posts.js';

const database = useTestDatabase();
const at = '2026-03-01 00:00:00';
const clock = new ManualClock('2026-03-01T00:00:00Z');

async function threeUsers(users: UserRepository): Promise<[number, number, number]> {
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) ids.push((await users.create(aNewUser())).id);
  return ids as [number, number, number];
}

const groupViews = {
  counters: (p: GroupPostRecord) => ({ reactions: p.likes_count, comments: p.comments_count }),
  stored: (p: GroupPostRecord) => ({ content: p.content, media: p.media, media_type: p.media_type, updated_at: p.updated_at }),
  nests: true,
};

const pageViews = {
  counters: (p: PagePostRecord) => ({ reactions: p.like_count, comments: p.comment_count }),
  stored: (p: PagePostRecord) => ({
    content: p.content,
    media: p.media === null ? [] : [p.media],
    media_type: p.media_type,
    updated_at: p.updated_at,
  }),
  nests: false,
};

// A wall post's place is its author's account: the first user's wall.
const wallViews = {
  counters: (p: PostRecord) => ({ reactions: p.likes_count, comments: p.comments_count }),
  stored: (p: PostRecord) => ({ content: p.content, media: p.media, media_type: p.media_type, updated_at: p.updated_at }),
  nests: true,
};

async function aPage(pages: PageRepository, creatorId: number): Promise<number> {
  return (await pages.create({ ...aNewPage(), created_by: creatorId, created_at: at })).id;
}

surfacePostStoreContract('groups, in-memory', async () => {
  const users = new InMemoryUserRepository();
  const store = new InMemoryGroupStore();
  const userIds = await threeUsers(users);
  const placeId = await aGroup(new InMemoryGroupRepository(store), userIds[0]);
  return {
    store: groupPostStore(new InMemoryGroupPostRepository(store), new InMemoryGroupCommentRepository(store)),
    placeId,
    userIds,
    ...groupViews,
  };
});

surfacePostStoreContract(`groups, sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  const userIds = await threeUsers(new SqlUserRepository(db));
  const placeId = await aGroup(new SqlGroupRepository(db, dialect), userIds[0]);
  return {
    store: groupPostStore(new SqlGroupPostRepository(db, dialect), new SqlGroupCommentRepository(db, dialect)),
    placeId,
    userIds,
    ...groupViews,
  };
});

surfacePostStoreContract('pages, in-memory', async () => {
  const userIds = await threeUsers(new InMemoryUserRepository());
  const placeId = await aPage(new InMemoryPageRepository(), userIds[0]);
  return { store: pagePostStore(new InMemoryPagePostRepository(), clock), placeId, userIds, ...pageViews };
});

surfacePostStoreContract(`pages, sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  const userIds = await threeUsers(new SqlUserRepository(db));
  const placeId = await aPage(new SqlPageRepository(db, dialect), userIds[0]);
  return { store: pagePostStore(new SqlPagePostRepository(db, dialect), clock), placeId, userIds, ...pageViews };
});

surfacePostStoreContract('walls, in-memory', async () => {
  const users = new InMemoryUserRepository();
  const content = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const userIds = await threeUsers(users);
  const store = wallPostStore(
    new InMemoryPostRepository(content),
    new InMemoryCommentRepository(content),
    new InMemoryPostEngagementRepository(content),
  );
  return { store, placeId: userIds[0], userIds, ...wallViews };
});

surfacePostStoreContract(`walls, sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  const userIds = await threeUsers(new SqlUserRepository(db));
  const store = wallPostStore(
    new SqlPostRepository(db),
    new SqlCommentRepository(db, dialect),
    new SqlPostEngagementRepository(db, dialect),
  );
  return { store, placeId: userIds[0], userIds, ...wallViews };
});
