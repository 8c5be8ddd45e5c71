import { aNewUser } from '../accounts/testing/mothers.js';
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
import { surfaceBehaviourSuite, surfaceCast } from './testing/surface-behaviour.js';

// A wall is its account's: the public place is the publisher's wall, the hidden one a private account's
// that the viewer does not follow; the moderator is a site moderator, who moderates every wall.
surfaceBehaviourSuite('wall', async () => {
  const { users, clock, uploads, heard, moderator, publisher, viewer, upload } = await surfaceCast();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const posts = new InMemoryPostRepository(store);
  const service = new PostService(
    posts,
    new InMemoryCommentRepository(store),
    new InMemoryPostEngagementRepository(store),
    follows,
    users,
    new EngagementEvents([heard]),
    clock,
    new InMemoryUnitOfWork(users, follows, store),
    uploads.references,
  );
  const hidden = await users.create(aNewUser());
  await users.setPrivacy(hidden.id, { is_private: true });
  return {
    core: service.core,
    placeId: publisher.userId,
    hiddenPlaceId: hidden.id,
    publisher,
    hiddenPublisher: { ...publisher, userId: hidden.id, username: hidden.username },
    viewer,
    moderator: { ...moderator, isModerator: true },
    heard,
    tells: true,
    upload,
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media, media_type: p.media_type };
    },
    postsIn: async (accountId) => [...store.posts.values()].filter((p) => p.user_id === accountId).length,
  };
});
