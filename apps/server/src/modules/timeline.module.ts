import { token } from '@plaza/domain';
import { PostEventListeners } from '@plaza/domain/content';
import { HomeTimeline, HomeTimelineRepository } from '@plaza/domain/timeline';
import { FollowEventListeners } from '@plaza/domain/social';
import { SqlHomeTimelineRepository, SqlTimelineAccountData, TIMELINE_MIGRATIONS } from '@plaza/adapters-mysql/timeline';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken } from '../wiring/tokens.js';

export const Timeline = {
  HomeTimeline: token<HomeTimeline>('timeline.HomeTimeline'),
};

/** What timeline declares outside the container (docs/decisions/0130): the contract suites of its ports; no use cases of its own (content reads the feed). */
const face = {
  name: 'timeline',
  ports: {
    // timeline
    HomeTimelineRepository: { suites: ['timeline/testing/home-timeline.contract.ts'], via: 'timelines' },
  },
} as const;

/**
 * The precomputed home timeline (docs/decisions/0071): kept by listening to posts, shares and
 * follows, read by the content module's following feed.
 */
export const timelineModule = featureModule(face, (w) => {
  w.bind(HomeTimelineRepository, [DatabaseToken], ({ db, dialect }) => new SqlHomeTimelineRepository(db, dialect));
  w.bind(
    Timeline.HomeTimeline,
    { repo: HomeTimelineRepository, config: ConfigToken },
    ({ repo, config }) => new HomeTimeline(repo, config.homeTimeline),
  );
  w.bind(PostEventListeners, [Timeline.HomeTimeline], (timeline) => timeline);
  w.bind(FollowEventListeners, [Timeline.HomeTimeline], (timeline) => timeline);
  // Polled every 2 s without Redis; with REDIS_URL each queued entry is relayed as one BullMQ job (0215).
  w.outboxJob({ name: 'home-timeline-fanout', everyMs: 2_000 }, [Timeline.HomeTimeline], (timeline) => ({
    run: () => timeline.fanOutQueued(),
    outbox: timeline.lane,
  }));
  w.job({ name: 'home-timeline-trim', everyMs: 60_000 }, [Timeline.HomeTimeline], (timeline) => () => timeline.trim());
  w.migrations(TIMELINE_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlTimelineAccountData(db));
});
