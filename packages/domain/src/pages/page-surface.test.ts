import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { EngagementEvents } from '../content/engagement-events.js';
import { HeardEngagement, surfaceBehaviourSuite } from '../content/testing/surface-behaviour.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { toTimestamp } from '../shared/time.js';
import { PagePostService } from './page-post-service.js';
import { PageService } from './page-service.js';
import { InMemoryPagePostRepository, InMemoryPageRepository } from './testing/in-memory-pages.js';

surfaceBehaviourSuite('page', async () => {
  const users = new InMemoryUserRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const pageRepo = new InMemoryPageRepository();
  const posts = new InMemoryPagePostRepository();
  const uow = new InMemoryUnitOfWork(users, pageRepo, posts);
  const uploads = new InMemoryUploads();
  const heard = new HeardEngagement();
  const pages = new PageService(pageRepo, users, clock, uow, uploads.references);
  const service = new PagePostService(pages, posts, users, clock, uow, uploads.references, new EngagementEvents([heard]));
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false };
  };
  const [moderator, publisher, viewer] = [await actor(), await actor(), await actor()];
  const at = toTimestamp(clock.now());
  const [open, closed] = [await pages.create(moderator, { name: 'Open' }), await pages.create(moderator, { name: 'Closed' })];
  await pageRepo.update(open.id, { privacy: 'public' }, at);
  await pageRepo.update(closed.id, { privacy: 'private' }, at);
  // An editor publishes and keeps their own posts; only the page's admin deletes others'.
  for (const p of [open, closed]) await pageRepo.setRole(p.id, publisher.userId, 'editor', at);
  return {
    core: service.core,
    placeId: open.id,
    hiddenPlaceId: closed.id,
    publisher,
    viewer,
    moderator,
    heard,
    tells: false,
    upload: (owner, name) => uploads.place(`uploads/posts/${name}`, owner.userId),
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media === null ? [] : [p.media], media_type: p.media_type };
    },
    postsIn: async (pageId) => (await posts.list(pageId, { page: 1, perPage: 100 })).total,
  };
});
