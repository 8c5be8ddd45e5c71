import type { SurfacePostType } from '@plaza/domain/content';
import type { GroupRepository } from '@plaza/domain/groups';
import type { InMemorySurfacePost } from '@plaza/domain/content/testing';
import { BLANK_PAGE } from '@plaza/domain/pages';
import type { Database } from '@plaza/adapters-mysql';
import type { Kysely } from 'kysely';

const CREATED = '2026-02-01 09:00:00';

/** A public group created by `creatorId` through the groups' repository under test: its id. */
export async function aGroup(groups: GroupRepository, creatorId: number): Promise<number> {
  const group = await groups.create({
    name: 'G',
    description: '',
    avatar: null,
    cover_image: null,
    privacy: 'public',
    creator_id: creatorId,
    created_at: CREATED,
  });
  return group.id;
}

/** How a contract suite asks for a group or page post: public, or private to `insiders` (members, team). */
export interface SurfacePostFixture {
  content: string;
  isPrivate?: boolean;
  insiders?: number[];
}

/**
 * A group or page post written straight into the groups' and pages' tables (a group or page of its own,
 * with `insiders` as members or team): content and discovery ports only read them.
 */
export async function publishSurfacePost(
  db: Kysely<Database>,
  type: SurfacePostType,
  authorId: number,
  o: SurfacePostFixture,
): Promise<number> {
  const privacy = o.isPrivate ? 'private' : 'public';
  if (type === 'group') {
    const group = await db
      .insertInto('community_groups')
      .values({
        name: 'G',
        description: '',
        avatar: null,
        cover_image: null,
        privacy,
        creator_id: authorId,
        created_at: CREATED,
        updated_at: null,
      })
      .executeTakeFirstOrThrow();
    const groupId = Number(group.insertId);
    for (const userId of o.insiders ?? []) {
      await db.insertInto('group_members').values({ group_id: groupId, user_id: userId, role: 'member', joined_at: CREATED }).execute();
    }
    const post = await db
      .insertInto('group_posts')
      .values({
        group_id: groupId,
        user_id: authorId,
        content: o.content,
        media: '[]',
        media_type: null,
        tags: '[]',
        created_at: CREATED,
        updated_at: null,
      })
      .executeTakeFirstOrThrow();
    return Number(post.insertId);
  }
  const pageRow = await db
    .insertInto('pages')
    .values({ ...BLANK_PAGE, name: 'P', privacy, created_by: authorId, created_at: CREATED, updated_at: null })
    .executeTakeFirstOrThrow();
  const pageId = Number(pageRow.insertId);
  for (const userId of o.insiders ?? []) {
    await db.insertInto('page_admins').values({ page_id: pageId, user_id: userId, role: 'editor', created_at: CREATED }).execute();
  }
  const post = await db
    .insertInto('page_posts')
    .values({
      page_id: pageId,
      user_id: authorId,
      content: o.content,
      media: null,
      media_type: null,
      created_at: CREATED,
      updated_at: null,
    })
    .executeTakeFirstOrThrow();
  return Number(post.insertId);
}

/** The same, for the fakes: a record and its rule in the map the surface fakes read. */
export function inMemorySurfacePublisher(posts: Map<string, InMemorySurfacePost>) {
  let nextId = 1;
  return async (type: SurfacePostType, authorId: number, o: SurfacePostFixture): Promise<number> => {
    const id = nextId++;
    const home = nextId++;
    posts.set(`${type}:${id}`, {
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
  };
}
