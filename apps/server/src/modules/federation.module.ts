import { Clock, token, toTimestamp, UnitOfWork } from '@plaza/domain';
import { ProfileEventListeners, UserRepository } from '@plaza/domain/accounts';
import {
  CommentEventListeners,
  CommentRepository,
  PostEventListeners,
  PostRepository,
  RemoteCommentAuthors,
  RemoteCommentReactions,
} from '@plaza/domain/content';
import { ModerationLog } from '@plaza/domain/moderation';
import { EngagementNotices, type NotificationService, SocialNotices } from '@plaza/domain/notifications';
import {
  ActorKeyRepository,
  DomainBlockRepository,
  DOMAIN_BLOCK_REASON_MAX,
  DOMAIN_BLOCK_SEVERITIES,
  DomainPolicy,
  FederationAdminService,
  FederationKeyValues,
  FederationOutbox,
  FederationPostListener,
  FederationQueue,
  FederationService,
  CachedRemoteCommentAuthors,
  CachedRemoteCommentReactions,
  FederationCommentListener,
  InboundInteractions,
  type InboundNotices,
  QUEUE_STATES,
  RemoteInteractionRepository,
  REMOTE_DOCUMENT_MAX_BYTES,
  RemoteActorRepository,
  RemoteDirectory,
  RemoteFollowRepository,
  RemotePostRepository,
  RemoteFollowApproval,
  RemoteFollowRequestRepository,
  FarewellFirst,
  OutboundInteractionRepository,
  RemoteEngagement,
  RemoteNoteResolver,
} from '@plaza/domain/federation';
import { OutsideFollowRequests } from '@plaza/domain/social';
import {
  ActivityBuilder,
  ActorKeys,
  DatabaseKvStore,
  FEDERATION_PUBLIC_PATHS,
  FederationUrls,
  type FederationLoaders,
  FederationWorker,
  DELIVER_CHANNEL,
  FANOUT_CHANNEL,
  FediverseDirectory,
  FetchableObjects,
  federationLoaders,
  InstanceActor,
  MentionResolver,
  GuardedClient,
  guardedDocumentLoader,
  InboundActivities,
  PlazaFederation,
  QueuedFederationOutbox,
  FederationAccountLifecycle,
  FederationShareListener,
  QueuedRemoteEngagementOutbox,
} from '@plaza/adapters-activitypub';
import { federationSection } from '@plaza/adapters-http';
import { fediverseScript, targetBody, zTarget } from '@plaza/adapters-http/scripts/fediverse';
import {
  FEDERATION_COUNTER_CONTRIBUTIONS,
  FEDERATION_MIGRATIONS,
  SqlActorKeyRepository,
  SqlDomainBlockRepository,
  SqlFederationAccountData,
  SqlFederationKeyValues,
  SqlFederationQueue,
  SqlInstanceUsage,
  SqlRemoteActorRepository,
  SqlRemoteFollowRepository,
  SqlRemotePostRepository,
  SqlRemoteInteractionRepository,
  SqlRemoteFollowRequestRepository,
  SqlOutboundInteractionRepository,
} from '@plaza/adapters-mysql/federation';
import { RedisFederationKeyValues } from '@plaza/adapters-integrations/redis';
import { z } from 'zod';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { AdminSections, ConfigToken, CounterContributions, DatabaseToken, LoggerToken, Mounts, RedisToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';
import { Notifications } from './notifications.module.js';

const SOFTWARE = { name: 'plaza', version: '0.1.0' };

/**
 * Notices of remote actors' replies, reactions and boosts, raised by the same notices as the local ones
 * (notifications/engagement-notices.ts). They name no local sender (`from_user_id` null, shown as the
 * system notices are): the text names the remote handle (docs/decisions/0205).
 */
function remoteEngagementNotices(notifications: NotificationService): InboundNotices {
  const notices = new EngagementNotices(notifications);
  const from = (handle: string) => ({ name: handle, userId: null });
  const onWall = (postId: number) => ({ surface: 'wall' as const, post_id: postId });
  return {
    commented: ({ handle, recipientId, postId, commentId, reply }) =>
      notices.comment(from(handle), recipientId, commentId, reply, onWall(postId)),
    reacted: ({ handle, recipientId, postId, reaction }) => notices.reaction(from(handle), recipientId, reaction, onWall(postId)),
    shared: ({ handle, recipientId, postId }) => notices.share(from(handle), recipientId, postId),
    commentReacted: ({ handle, recipientId, postId, commentId, reaction }) =>
      notices.commentReaction(from(handle), recipientId, commentId, reaction, onWall(postId)),
  };
}

/**
 * fediverse.php's use cases, the ones a user calls; the rest of `FederationService` (`remoteFollowed`,
 * `noteReceived`…) is what the inbox does with activities whose signature it verified, and trusts its caller: not offered.
 */
const FEDIVERSE_USE_CASES = [
  'profile',
  'followers',
  'following',
  'feed',
  'lookup',
  'remoteProfile',
  'followRemote',
  'unfollowRemote',
] as const satisfies readonly (keyof FederationService)[];
export type FediverseUseCases = Pick<FederationService, (typeof FEDIVERSE_USE_CASES)[number]>;

export const Federation = {
  Urls: token<FederationUrls>('federation.Urls'),
  Client: token<GuardedClient>('federation.Client'),
  KvStore: token<DatabaseKvStore>('federation.KvStore'),
  Loaders: token<FederationLoaders>('federation.Loaders'),
  Keys: token<ActorKeys>('federation.Keys'),
  Activities: token<ActivityBuilder>('federation.Activities'),
  Service: token<FederationService>('federation.Service'),
  App: token<PlazaFederation>('federation.App'),
  Worker: token<FederationWorker>('federation.Worker'),
  Policy: token<DomainPolicy>('federation.Policy'),
  Admin: token<FederationAdminService>('federation.Admin'),
  /** The instance's Application actor, signer of Plaza's fetches in secure mode (docs/decisions/0201). */
  InstanceActor: token<InstanceActor>('federation.InstanceActor'),
  /** Remote mentions of federated posts, resolved by WebFinger and cached (mentions.ts). */
  Mentions: token<MentionResolver>('federation.Mentions'),
  Inbound: token<InboundInteractions>('federation.Inbound'),
  Approval: token<RemoteFollowApproval>('federation.Approval'),
  /** The queued outbox, with the activities beyond the `FederationOutbox` port (Reject, docs/decisions/0210). */
  Outbox: token<QueuedFederationOutbox>('federation.Outbox'),
  Lifecycle: token<FederationAccountLifecycle>('federation.Lifecycle'),
  /** The network side: WebFinger, actor, outbox and Note documents (RemoteDirectory, RemoteNoteResolver). */
  Directory: token<FediverseDirectory>('federation.Directory'),
  /** Reactions and replies of local users to remote posts (docs/decisions/0245). */
  Engagement: token<RemoteEngagement>('federation.Engagement'),
  /** fediverse.php's use cases alone (FEDIVERSE_USE_CASES), for `createPlaza().federation.fediverse`. */
  Fediverse: token<FediverseUseCases>('federation.Fediverse'),
};

/**
 * What federation offers outside the container (docs/decisions/0130): `createPlaza().federation`.
 * `fediverse` is fediverse.php: `lookup`, `remoteProfile`, `followRemote` and `unfollowRemote` make
 * outbound requests (WebFinger, the actor document, the queued Follow/Undo) through the SSRF-guarded
 * client, as HTTP does. `domains` is the admin panel's Federation pages: moderators read, administrators
 * alone decide, checked inside the service.
 */
const face = {
  name: 'federation',
  library: {
    fediverse: useCases(Federation.Fediverse, {
      profile: [ACTOR, id('userId')],
      followers: [ACTOR, id('userId'), pageRequest],
      following: [ACTOR, id('userId'), pageRequest],
      feed: [ACTOR, pageRequest, arg('refresh', z.boolean())],
      lookup: [ACTOR, arg('q', zTarget)],
      remoteProfile: [ACTOR, arg('q', zTarget), arg('postsLimit', z.number().int().min(0).max(40))],
      followRemote: [ACTOR, arg('target', targetBody)],
      unfollowRemote: [ACTOR, arg('target', targetBody)],
    }),
    domains: useCases(Federation.Admin, {
      blocked: [ACTOR],
      block: [
        ACTOR,
        arg(
          'input',
          z.object({
            domain: z.string().trim().min(1, 'is required').max(255),
            severity: z.enum(DOMAIN_BLOCK_SEVERITIES),
            reason: z.string().max(DOMAIN_BLOCK_REASON_MAX),
          }),
        ),
      ],
      unblock: [ACTOR, arg('domain', z.string().trim().min(1, 'is required').max(255))],
      deliveries: [ACTOR, arg('state', z.enum(QUEUE_STATES)), pageRequest],
      retry: [ACTOR, id('id')],
      discard: [ACTOR, id('id')],
    }),
  },
  ports: {
    // federation (RemoteDirectory and FederationOutbox are the network side: e2e tests against loopback peers)
    ActorKeyRepository: { suites: ['federation/testing/federation.contract.ts'], via: 'keys' },
    RemoteActorRepository: { suites: ['federation/testing/federation.contract.ts'], via: 'actors' },
    RemoteFollowRepository: { suites: ['federation/testing/federation.contract.ts'], via: 'follows' },
    RemotePostRepository: { suites: ['federation/testing/federation.contract.ts'], via: 'posts' },
    RemoteInteractionRepository: { suites: ['federation/testing/remote-interactions.contract.ts'], via: 'remote' },
    FederationKeyValues: { suites: ['federation/testing/federation.contract.ts'], via: 'kv' },
    FederationQueue: { suites: ['federation/testing/federation.contract.ts'], via: 'queue' },
    DomainBlockRepository: { suites: ['federation/testing/federation.contract.ts'], via: 'blocks' },
    RemoteFollowRequestRepository: { suites: ['federation/testing/follow-requests.contract.ts'], via: 'requests' },
    OutboundInteractionRepository: { suites: ['federation/testing/outbound-interactions.contract.ts'], via: 'outbound' },
    RemoteDirectory: 'no SQL adapter',
    RemoteNoteResolver: 'no SQL adapter',
    FederationOutbox: 'no SQL adapter',
  },
} as const;

/**
 * ActivityPub federation on Fedify (docs/decisions/0050, 0051): the public documents and inboxes
 * (mounted beside the scripts), fediverse.php, the outbound listener of posts, and the queue job.
 */
export const federationModule = featureModule(face, (w) => {
  w.migrations(FEDERATION_MIGRATIONS);
  // Remote likes, boosts and comment reactions move the wall's counters: its recounts count them (0226).
  for (const c of FEDERATION_COUNTER_CONTRIBUTIONS) w.constant(CounterContributions, c);
  w.bind(ActorKeyRepository, [DatabaseToken], ({ db }) => new SqlActorKeyRepository(db));
  w.bind(RemoteActorRepository, [DatabaseToken], ({ db, dialect }) => new SqlRemoteActorRepository(db, dialect));
  w.bind(RemoteFollowRepository, [DatabaseToken], ({ db }) => new SqlRemoteFollowRepository(db));
  w.bind(RemotePostRepository, [DatabaseToken], ({ db }) => new SqlRemotePostRepository(db));
  w.bind(RemoteInteractionRepository, [DatabaseToken], ({ db, dialect }) => new SqlRemoteInteractionRepository(db, dialect));
  // Replies from other servers are listed in comments.php with their remote authors (docs/decisions/0205).
  w.construct(RemoteCommentAuthors, CachedRemoteCommentAuthors, [RemoteActorRepository]);
  // …and their likes and reactions on local comments in comment_reactions.php (docs/decisions/0241).
  w.bind(
    RemoteCommentReactions,
    { remote: RemoteInteractionRepository, actors: RemoteActorRepository },
    ({ remote, actors }) => new CachedRemoteCommentReactions(remote, new CachedRemoteCommentAuthors(actors)),
  );
  w.bind(
    Federation.Inbound,
    {
      users: UserRepository,
      posts: PostRepository,
      comments: CommentRepository,
      actors: RemoteActorRepository,
      remote: RemoteInteractionRepository,
      clock: Clock,
      uow: UnitOfWork,
      policy: Federation.Policy,
      notifications: Notifications.NotificationService,
    },
    ({ users, posts, comments, actors, remote, clock, uow, policy, notifications }) =>
      new InboundInteractions(users, posts, comments, actors, remote, clock, uow, policy, remoteEngagementNotices(notifications)),
  );
  w.bind(RemoteFollowRequestRepository, [DatabaseToken], ({ db }) => new SqlRemoteFollowRequestRepository(db));
  // Fedify's caches and inbox idempotence keys: on Redis when it is configured (docs/decisions/0160).
  w.bind(FederationKeyValues, [DatabaseToken, RedisToken], ({ db, dialect }, redis) =>
    redis ? new RedisFederationKeyValues(redis.commands, redis.prefix) : new SqlFederationKeyValues(db, dialect),
  );
  w.bind(FederationQueue, [DatabaseToken], ({ db }) => new SqlFederationQueue(db));
  w.bind(DomainBlockRepository, [DatabaseToken], ({ db }) => new SqlDomainBlockRepository(db));
  // One cached copy of the block list per process (read again every 30 s, and at once after a change here).
  w.construct(Federation.Policy, DomainPolicy, [DomainBlockRepository, Clock]);

  w.bind(Federation.Urls, [ConfigToken], (config) => new FederationUrls(config.publicUrl));
  // The one outbound client of federation: SSRF policy, 10 s, 2 redirects, 1 MB.
  w.bind(
    Federation.Client,
    [ConfigToken],
    (config) =>
      new GuardedClient({
        allowPrivate: config.federation.allowPrivateAddresses,
        maxBytes: REMOTE_DOCUMENT_MAX_BYTES,
        userAgent: `${SOFTWARE.name}/${SOFTWARE.version} (+${config.publicUrl}/)`,
      }),
  );
  w.construct(Federation.KvStore, DatabaseKvStore, [FederationKeyValues, Clock]);
  w.construct(Federation.InstanceActor, InstanceActor, [Federation.Urls, Federation.KvStore]);
  // In secure mode every document Plaza fetches is fetched signed by the instance actor (authorized fetch both ways).
  w.bind(
    Federation.Loaders,
    { client: Federation.Client, kv: Federation.KvStore, instance: Federation.InstanceActor, config: ConfigToken },
    ({ client, kv, instance, config }) =>
      federationLoaders(client, kv, config.federation.secureMode ? instance.signedLoader(client) : undefined),
  );
  w.construct(Federation.Keys, ActorKeys, [ActorKeyRepository, Clock]);
  // Serializing our own activities needs only the preloaded contexts (no request).
  w.bind(
    Federation.Activities,
    { urls: Federation.Urls, client: Federation.Client },
    ({ urls, client }) => new ActivityBuilder(urls, guardedDocumentLoader(client)),
  );
  w.construct(Federation.Outbox, QueuedFederationOutbox, [Federation.Urls, Federation.Activities, FederationQueue, Clock]);
  w.bind(FederationOutbox, [Federation.Outbox], (outbox) => outbox);
  w.bind(
    Federation.Directory,
    { client: Federation.Client, loaders: Federation.Loaders, urls: Federation.Urls, clock: Clock, config: ConfigToken },
    ({ client, loaders, urls, clock, config }) =>
      new FediverseDirectory(client, loaders, urls, clock, config.federation.allowPrivateAddresses),
  );
  w.bind(RemoteDirectory, [Federation.Directory], (directory) => directory);
  // Remote Notes are fetched as remote actors are: the same guarded (in secure mode signed) loader.
  w.bind(RemoteNoteResolver, [Federation.Directory], (directory) => directory);
  // Reactions and replies to remote posts (docs/decisions/0245): the Note is fetched by the directory's
  // loader (guarded, signed in secure mode), the activities queued with the rows.
  w.bind(OutboundInteractionRepository, [DatabaseToken], ({ db }) => new SqlOutboundInteractionRepository(db));
  w.bind(
    Federation.Engagement,
    {
      users: UserRepository,
      actors: RemoteActorRepository,
      directory: RemoteDirectory,
      notes: RemoteNoteResolver,
      store: OutboundInteractionRepository,
      urls: Federation.Urls,
      activities: Federation.Activities,
      queue: FederationQueue,
      clock: Clock,
      uow: UnitOfWork,
      policy: Federation.Policy,
    },
    ({ users, actors, directory, notes, store, urls, activities, queue, clock, uow, policy }) =>
      new RemoteEngagement(
        users,
        actors,
        directory,
        notes,
        store,
        new QueuedRemoteEngagementOutbox(urls, activities, queue, clock),
        clock,
        uow,
        policy,
      ),
  );
  // Follow approval of private accounts (docs/decisions/0210), answered in friends.php.
  w.bind(
    Federation.Approval,
    {
      users: UserRepository,
      actors: RemoteActorRepository,
      follows: RemoteFollowRepository,
      requests: RemoteFollowRequestRepository,
      outbox: Federation.Outbox,
      clock: Clock,
      uow: UnitOfWork,
      notifications: Notifications.NotificationService,
    },
    // A new request notifies the account as a local friend request does (social notices).
    ({ users, actors, follows, requests, outbox, clock, uow, notifications }) => {
      const notices = new SocialNotices(notifications);
      return new RemoteFollowApproval(users, actors, follows, requests, outbox, clock, uow, {
        requested: (notice) => notices.remoteFollowRequested(notice),
      });
    },
  );
  w.bind(OutsideFollowRequests, [Federation.Approval], (approval) => approval);
  w.construct(Federation.Service, FederationService, [
    UserRepository,
    RemoteActorRepository,
    RemoteFollowRepository,
    RemotePostRepository,
    RemoteDirectory,
    FederationOutbox,
    Clock,
    UnitOfWork,
    Federation.Policy,
    Federation.Approval,
  ]);
  w.bind(
    Federation.Mentions,
    { directory: RemoteDirectory, policy: Federation.Policy, kv: Federation.KvStore, logger: LoggerToken },
    ({ directory, policy, kv, logger }) =>
      new MentionResolver({
        resolve: (handle) => directory.resolve(handle),
        suspended: policy,
        kv,
        log: { warn: (details, message) => logger.warn(details, message) },
      }),
  );
  w.bind(Federation.Fediverse, [Federation.Service], (service) => {
    const offered = Object.fromEntries(FEDIVERSE_USE_CASES.map((name) => [name, service[name].bind(service)]));
    return offered as unknown as FediverseUseCases;
  });
  // Create, Update and Delete of wall posts, queued in the post's own unit of work.
  w.construct(PostEventListeners, FederationPostListener, [UserRepository, RemoteFollowRepository, FederationOutbox]);
  // Local comments on federated posts, as reply Notes, queued in the comment's own unit of work (docs/decisions/0240).
  w.construct(CommentEventListeners, FederationCommentListener, [
    UserRepository,
    RemoteFollowRepository,
    RemoteActorRepository,
    RemoteInteractionRepository,
    CommentRepository,
    FederationOutbox,
  ]);
  // A share of a public post, as Announce to the sharer's remote followers.
  w.construct(PostEventListeners, FederationShareListener, [
    UserRepository,
    RemoteFollowRepository,
    Federation.Activities,
    FederationQueue,
    Federation.Urls,
    Clock,
  ]);

  w.bind(
    Federation.App,
    [
      Federation.Urls,
      Federation.Service,
      Federation.Keys,
      RemoteFollowRepository,
      PostRepository,
      DatabaseToken,
      Federation.KvStore,
      Federation.Loaders,
      FederationQueue,
      Federation.Activities,
      Clock,
      LoggerToken,
      Federation.Policy,
      CommentRepository,
      UserRepository,
      Federation.InstanceActor,
      Federation.Mentions,
      ConfigToken,
      Federation.Inbound,
      OutboundInteractionRepository,
      RemoteActorRepository,
    ],
    (
      urls,
      service,
      keys,
      follows,
      posts,
      { db },
      kvStore,
      loaders,
      queue,
      activities,
      clock,
      logger,
      policy,
      comments,
      users,
      instanceActor,
      mentions,
      config,
      inbound,
      outbound,
      remoteActors,
    ) =>
      new PlazaFederation({
        urls,
        service,
        keys,
        follows,
        posts: {
          // The wall as an anonymous reader sees it (public accounts only reach here), shares left out.
          async latest(userId, limit) {
            const entries = (await posts.wall(userId, { userId: 0, moderator: false }, { page: 1, perPage: 100 }))
              .filter((e) => e.shared_by === null)
              .slice(0, limit);
            return (await posts.views(entries, 0)).map((v) => v.post);
          },
          count: (userId) => posts.countByUser(userId),
        },
        usage: new SqlInstanceUsage(db),
        kvStore,
        loaders,
        queue,
        activities,
        clock,
        log: { warn: (details, message) => logger.warn(details, message), debug: (details, message) => logger.debug(details, message) },
        software: SOFTWARE,
        suspended: policy,
        fetchable: new FetchableObjects({
          urls,
          sources: {
            post: (id) => posts.findById(id),
            comment: (id) => comments.findById(id),
            user: (id) => users.findById(id),
            localUser: (username) => service.localUser(username),
            followerInboxes: (userId) => follows.followerInboxes(userId),
            remoteReply: (id) => outbound.findReply(id),
            remoteActor: (url) => remoteActors.find(url),
          },
          activities,
          loaders,
          secureMode: config.federation.secureMode,
          mainAppHost: config.federation.mainAppHost,
          instanceActor,
          suspended: policy,
          mentions,
        }),
        inbound: new InboundActivities(urls, inbound, { debug: (details, message) => logger.debug(details, message) }, () => clock.now()),
      }),
  );
  w.bind(Mounts, [Federation.App], (app) => ({
    matches: (path, request) => app.matches(path, request),
    fetch: (request) => app.fetch(request),
    maxBodyBytes: REMOTE_DOCUMENT_MAX_BYTES,
    publicPaths: FEDERATION_PUBLIC_PATHS,
  }));

  w.bind(
    Federation.Worker,
    {
      queue: FederationQueue,
      app: Federation.App,
      follows: RemoteFollowRepository,
      keys: Federation.Keys,
      urls: Federation.Urls,
      client: Federation.Client,
      clock: Clock,
      logger: LoggerToken,
      policy: Federation.Policy,
      mentions: Federation.Mentions,
    },
    ({ queue, app, follows, keys, urls, client, clock, logger, policy, mentions }) =>
      new FederationWorker(
        queue,
        { queue: app.fedifyQueue, start: () => app.startQueue() },
        follows,
        keys,
        urls,
        client,
        clock,
        {
          delivered: (inbox, status) => logger.debug({ inbox, status }, 'activity delivered'),
          failed: (message, error, retryAt) =>
            logger.warn(
              { queue_id: message.id, channel: message.channel, attempts: message.attempts + 1, retry_at: retryAt, err: error },
              retryAt ? 'federation task failed, will retry' : 'federation task failed, giving up',
            ),
          dropped: (inbox) => logger.info({ inbox }, 'delivery to a suspended domain dropped'),
        },
        policy,
        mentions,
      ),
  );
  // Deliveries and inbound activities: every 2 s in every instance (leases keep them from running twice).
  // Timers drain the queue every 2 s; BullMQ gets each due message relayed as one job (docs/decisions/0215).
  w.outboxJob({ name: 'federation-queue', everyMs: 2_000 }, [Federation.Worker], (worker) => ({
    run: () => worker.drain(),
    outbox: worker.lane,
  }));
  w.job(
    { name: 'federation-cache-purge', everyMs: 60 * 60_000 },
    { kv: FederationKeyValues, clock: Clock },
    ({ kv, clock }) =>
      () =>
        kv.purgeExpired(toTimestamp(clock.now())),
  );

  // The admin panel's Federation and Deliveries pages (docs/decisions/0106); decisions go to the moderators' log.
  w.bind(
    Federation.Admin,
    {
      blocks: DomainBlockRepository,
      policy: Federation.Policy,
      follows: RemoteFollowRepository,
      posts: RemotePostRepository,
      queue: FederationQueue,
      log: ModerationLog,
      clock: Clock,
      uow: UnitOfWork,
    },
    ({ blocks, policy, follows, posts, queue, log, clock, uow }) =>
      new FederationAdminService(
        blocks,
        policy,
        follows,
        posts,
        queue,
        { record: async (e) => void (await log.record({ ...e, report_id: null, post_id: null, by_vote: false })) },
        clock,
        uow,
        [DELIVER_CHANNEL, FANOUT_CHANNEL],
      ),
  );
  w.bind(AdminSections, [Federation.Admin], (admin) => federationSection(admin));

  w.script(
    { federation: Federation.Service, config: ConfigToken, p: Platform.Presenters, engagement: Federation.Engagement },
    ({ federation, config, p, engagement }) =>
      fediverseScript(federation, { publicUrl: config.publicUrl, domain: config.domain }, p, engagement),
  );
  // Update(Person) on profile edits, Delete(Person) before an account's erasure (docs/decisions/0050).
  w.construct(Federation.Lifecycle, FederationAccountLifecycle, [
    UserRepository,
    RemoteFollowRepository,
    RemoteActorRepository,
    Federation.App,
    Federation.Activities,
    FederationQueue,
    Federation.Keys,
    Federation.Urls,
    Clock,
  ]);
  w.bind(ProfileEventListeners, [Federation.Lifecycle], (lifecycle) => lifecycle);
  w.accountData(
    [DatabaseToken, Federation.Lifecycle],
    ({ db }, lifecycle) => new FarewellFirst(new SqlFederationAccountData(db), lifecycle),
  );
});
