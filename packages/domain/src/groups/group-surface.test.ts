import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { EngagementEvents } from '../content/engagement-events.js';
import { InMemoryCommentRepository, InMemoryContentStore, InMemoryPostRepository } from '../content/testing/in-memory-content.js';
import { HeardEngagement, surfaceBehaviourSuite } from '../content/testing/surface-behaviour.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import { NotificationService } from '../notifications/notification-service.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { toTimestamp } from '../shared/time.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { GroupPostService } from './group-post-service.js';
import { GroupService } from './group-service.js';
import {
  InMemoryGroupCommentRepository,
  InMemoryGroupPostRepository,
  InMemoryGroupRepository,
  InMemoryGroupStore,
} from './testing/in-memory-groups.js';

surfaceBehaviourSuite('group', async () => {
  const users = new InMemoryUserRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const content = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const people = new InMemoryPostRepository(content);
  const store = new InMemoryGroupStore();
  const groups = new InMemoryGroupRepository(store);
  const posts = new InMemoryGroupPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const uow = new InMemoryUnitOfWork(users, store, content, notes);
  const uploads = new InMemoryUploads();
  const heard = new HeardEngagement();
  const notifications = new NotificationService(notes, new RecordingPushSender(), clock);
  const groupService = new GroupService(groups, users, people, notifications, clock, uow, uploads.references);
  const service = new GroupPostService(
    groupService,
    groups,
    posts,
    new InMemoryGroupCommentRepository(store),
    new InMemoryCommentRepository(content),
    people,
    users,
    new EngagementEvents([heard]),
    clock,
    uow,
    uploads.references,
  );
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false };
  };
  const [moderator, publisher, viewer] = [await actor(), await actor(), await actor()];
  const at = toTimestamp(clock.now());
  const group = (privacy: 'public' | 'private') =>
    groups.create({
      name: `A ${privacy} group`,
      description: '',
      avatar: null,
      cover_image: null,
      privacy,
      creator_id: moderator.userId,
      created_at: at,
    });
  const [open, closed] = [await group('public'), await group('private')];
  for (const g of [open, closed]) await groups.addMember(g.id, publisher.userId, 'member', at);
  return {
    core: service.core,
    placeId: open.id,
    hiddenPlaceId: closed.id,
    publisher,
    viewer,
    moderator,
    heard,
    tells: true,
    upload: (owner, name) => uploads.place(`uploads/posts/${name}`, owner.userId),
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media, media_type: p.media_type };
    },
    postsIn: async (groupId) => (await posts.listByGroup(groupId, { page: 1, perPage: 100 })).length,
  };
});
