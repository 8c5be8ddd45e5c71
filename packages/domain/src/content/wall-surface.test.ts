import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { EngagementEvents } from './engagement-events.js';
import { PostService } from './post-service.js';
import {
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
} from './testing/in-memory-content.js';
import { HeardEngagement, surfaceBehaviourSuite } from './testing/surface-behaviour.js';

// A wall is its account's: the public place is the publisher's wall, the hidden one a private account's
// that the viewer does not follow; the moderator is a site moderator, who moderates every wall.
surfaceBehaviourSuite('wall', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const store = new InMemoryContentStore(users, follows);
  const posts = new InMemoryPostRepository(store);
  const uow = new InMemoryUnitOfWork(users, follows, store);
  const uploads = new InMemoryUploads();
  const heard = new HeardEngagement();
  const service = new PostService(
    posts,
    new InMemoryCommentRepository(store),
    new InMemoryPostEngagementRepository(store),
    follows,
    users,
    new EngagementEvents([heard]),
    clock,
    uow,
    uploads.references,
  );
  const actor = async (flags: Partial<Actor> = {}): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false, ...flags };
  };
  const [moderator, publisher, hiddenPublisher, viewer] = [await actor({ isModerator: true }), await actor(), await actor(), await actor()];
  await users.setPrivacy(hiddenPublisher.userId, { is_private: true });
  return {
    core: service.core,
    placeId: publisher.userId,
    hiddenPlaceId: hiddenPublisher.userId,
    publisher,
    hiddenPublisher,
    viewer,
    moderator,
    heard,
    tells: true,
    upload: (owner, name) => uploads.place(`uploads/posts/${name}`, owner.userId),
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media, media_type: p.media_type };
    },
    postsIn: async (accountId) => [...store.posts.values()].filter((p) => p.user_id === accountId).length,
  };
});
