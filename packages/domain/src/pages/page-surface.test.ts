import { EngagementEvents } from '../content/engagement-events.js';
import { surfaceBehaviourSuite, surfaceCast } from '../content/testing/surface-behaviour.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { PagePostService } from './page-post-service.js';
import { PageService } from './page-service.js';
import { InMemoryPagePostRepository, InMemoryPageRepository } from './testing/in-memory-pages.js';

surfaceBehaviourSuite('page', async () => {
  const { users, clock, at, uploads, heard, moderator, publisher, viewer, upload } = await surfaceCast();
  const pageRepo = new InMemoryPageRepository();
  const posts = new InMemoryPagePostRepository();
  const uow = new InMemoryUnitOfWork(users, pageRepo, posts);
  const pages = new PageService(pageRepo, users, clock, uow, uploads.references);
  const service = new PagePostService(pages, posts, users, clock, uow, uploads.references, new EngagementEvents([heard]));
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
    upload,
    stored: async (id) => {
      const p = await posts.findById(id);
      return p && { content: p.content, media: p.media === null ? [] : [p.media], media_type: p.media_type };
    },
    postsIn: async (pageId) => (await posts.list(pageId, { page: 1, perPage: 100 })).total,
  };
});
