import { EngagementEvents } from '../content/engagement-events.js';
import { InMemoryCommentRepository, InMemoryContentStore, InMemoryPostRepository } from '../content/testing/in-memory-content.js';
import { surfaceBehaviourSuite, surfaceCast } from '../content/testing/surface-behaviour.js';
import { NotificationService } from '../notifications/notification-service.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
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
  const { users, clock, at, uploads, heard, moderator, publisher, viewer, upload } = await surfaceCast();
  const content = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const people = new InMemoryPostRepository(content);
  const store = new InMemoryGroupStore();
  const groups = new InMemoryGroupRepository(store);
  const posts = new InMemoryGroupPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const uow = new InMemoryUnitOfWork(users, store, content, notes);
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
    upload,
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media, media_type: p.media_type };
    },
    postsIn: async (groupId) => (await posts.listByGroup(groupId, { page: 1, perPage: 100 })).length,
  };
});
