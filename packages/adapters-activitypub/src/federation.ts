import {
  Accept,
  Activity,
  Announce,
  Create,
  createFederation,
  CryptographicKey,
  Delete,
  EmojiReact,
  Endpoints,
  type Federation,
  Follow,
  Image,
  Like,
  type KvStore,
  Note,
  OrderedCollection,
  OrderedCollectionPage,
  parseSemVer,
  Person,
  Undo,
  Update,
  type DocumentLoader,
  type InboxContext,
  isActor,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type Clock, fromTimestamp, pageRequest } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import type { PostRecord } from '@plaza/domain/content';
import type { FederationQueue, FederationService, RemoteFollowRepository } from '@plaza/domain/federation';
import type { FederationLoaders } from './document-loader.js';
import type { FetchableObjects } from './fetchable.js';
import { DatabaseMessageQueue } from './fedify-store.js';
import type { ActorKeys } from './keys.js';
import { type Loaders, toRemoteActor, toRemotePost } from './mapping.js';
import type { InboundActivities } from './inbound.js';
import { type ActivityBuilder, noteHtml } from './outbox.js';
import { FEDERATION_PATHS, type FederationUrls, INBOX_PREFIX, SHARED_INBOX_PATH } from './urls.js';

/** The public posts of an account (outbox.php): the latest, and how many there are. */
export interface PublicPosts {
  latest(userId: number, limit: number): Promise<PostRecord[]>;
  count(userId: number): Promise<number>;
}

/** NodeInfo's usage numbers. */
export interface InstanceUsage {
  users(): Promise<number>;
  localPosts(): Promise<number>;
  localComments(): Promise<number>;
}

export interface FederationLog {
  warn(details: Record<string, unknown>, message: string): void;
  debug?(details: Record<string, unknown>, message: string): void;
}

export interface PlazaFederationOptions {
  urls: FederationUrls;
  service: FederationService;
  keys: ActorKeys;
  follows: RemoteFollowRepository;
  posts: PublicPosts;
  usage: InstanceUsage;
  kvStore: KvStore;
  loaders: FederationLoaders;
  queue: FederationQueue;
  activities: ActivityBuilder;
  clock: Clock;
  log: FederationLog;
  software: { name: string; version: string };
  /** Suspended domains (docs/decisions/0106): their signed deliveries are refused before verification. */
  suspended?: { isSuspended(url: string): Promise<boolean> };
  /** Notes at their ids, browser pages, secure mode (fetchable.ts, docs/decisions/0201). */
  fetchable?: FetchableObjects;
  /** Remote replies, likes, boosts and account lifecycle on local content (inbound.ts); without it they are dropped. */
  inbound?: InboundActivities;
}

/** Collections are paged by 20 (followers.php?page=N). */
const PAGE_SIZE = 20;
/** The spec's outbox: the 20 latest public posts. */
const OUTBOX_SIZE = 20;
const MAX_INBOX_BODY = 1024 * 1024;

const iso = (ts: string) => Temporal.Instant.fromEpochMilliseconds(fromTimestamp(ts).getTime());

function jsonResponse(status: number, body: unknown, type = 'application/json; charset=utf-8'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });
}

function errorResponse(status: number, code: string, message: string): Response {
  return jsonResponse(status, { success: false, error: message, message, code });
}

function imageType(name: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return (
    (
      { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml' } as Record<
        string,
        string
      >
    )[ext] ?? null
  );
}

/**
 * Plaza on Fedify (docs/decisions/0051): Fedify answers WebFinger and NodeInfo, verifies and
 * deduplicates what arrives at the inboxes (HTTP Signatures over the raw body, key fetched through
 * the guarded document loader and cached, refetched once on failure) and dispatches it to the
 * listeners below, through its queue. The actor, outbox and followers documents, whose ids are the
 * spec's `?username=` URLs, which Fedify's path router cannot match, are answered here from the same
 * builders, with Fedify's vocabulary.
 */
export class PlazaFederation {
  readonly federation: Federation<void>;
  readonly fedifyQueue: DatabaseMessageQueue;
  readonly loaders: Loaders;
  private readonly urls: FederationUrls;

  constructor(private readonly o: PlazaFederationOptions) {
    this.urls = o.urls;
    // Remote documents are cached in the store (Fedify's rules: a few minutes to a day).
    const { documentLoader, guarded } = o.loaders;
    this.loaders = { documentLoader, contextLoader: documentLoader };
    this.fedifyQueue = new DatabaseMessageQueue(o.queue, o.clock);

    this.federation = createFederation<void>({
      kv: o.kvStore,
      queue: { inbox: this.fedifyQueue },
      manuallyStartQueue: true,
      origin: o.urls.origin,
      documentLoaderFactory: () => documentLoader,
      contextLoaderFactory: () => documentLoader,
      // Signed GETs (for servers in secure mode) still go through the guarded client.
      authenticatedDocumentLoaderFactory: () => guarded,
      signatureTimeWindow: { hours: 1 },
    });
    this.configure();
  }

  /** Starts Fedify's queue handler (registers it on our queue; the worker job feeds it). */
  startQueue(): void {
    void this.federation.startQueue(undefined);
  }

  /** The account's actor document (also what Update(Person) carries, account-lifecycle.ts). */
  async person(user: UserRecord): Promise<Person> {
    const { publicKey } = await this.o.keys.of(user.id);
    const id = new URL(this.urls.actor(user.username));
    const avatar = this.urls.media(user.avatar, 'avatars');
    const banner = this.urls.media(user.banner, 'banners');
    return new Person({
      id,
      preferredUsername: user.username,
      name: user.display_name ?? user.username,
      summary: user.bio ? noteHtml(user.bio) : null,
      icon: avatar ? new Image({ url: new URL(avatar), mediaType: imageType(avatar) }) : null,
      image: banner ? new Image({ url: new URL(banner), mediaType: imageType(banner) }) : null,
      // Plaza serves no HTML profile page: the actor document is the account's only URL.
      url: id,
      published: iso(user.created_at),
      inbox: new URL(this.urls.inbox(user.username)),
      outbox: new URL(this.urls.outbox(user.username)),
      followers: new URL(this.urls.followers(user.username)),
      following: new URL(this.urls.following(user.username)),
      endpoints: new Endpoints({ sharedInbox: new URL(this.urls.sharedInbox()) }),
      publicKey: new CryptographicKey({ id: new URL(this.urls.keyId(user.username)), owner: id, publicKey }),
      // A private account answers each Follow itself (docs/decisions/0210).
      manuallyApprovesFollowers: user.is_private,
      discoverable: !user.is_private,
    });
  }

  private configure(): void {
    const { service } = this.o;
    this.federation
      .setActorDispatcher('/fediverse/actor.php?username={identifier}', async (_ctx, identifier) => {
        const user = await service.localUser(identifier);
        return user ? this.person(user) : null;
      })
      .mapHandle(async (_ctx, username) => (await service.localUser(username))?.username ?? null)
      .setKeyPairsDispatcher(async (_ctx, identifier) => {
        const user = await service.localUser(identifier);
        return user ? [await this.o.keys.of(user.id)] : [];
      });

    this.federation.setNodeInfoDispatcher('/fediverse/nodeinfo/2.1', async () => ({
      software: { name: this.o.software.name, version: parseSemVer(this.o.software.version) },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: {
        users: { total: await this.o.usage.users() },
        localPosts: await this.o.usage.localPosts(),
        localComments: await this.o.usage.localComments(),
      },
    }));

    const at = () => this.o.clock.now();
    this.federation
      .setInboxListeners(`${INBOX_PREFIX}{identifier}`, SHARED_INBOX_PATH)
      .on(Follow, async (ctx, follow) => {
        if (!follow.id || !follow.actorId || !follow.objectId) return;
        const username = this.urls.usernameOf(follow.objectId.href);
        if (!username) return;
        const actor = await follow.getActor(ctx);
        if (!isActor(actor) || actor.id?.href !== follow.actorId.href) return;
        const remote = await toRemoteActor(actor, this.loadersOf(ctx), at());
        if (remote) await service.remoteFollowed(username, remote, follow.id.href);
      })
      .on(Undo, async (ctx, undo) => {
        if (!undo.actorId || !undo.objectId) return;
        const object = await undo.getObject(ctx).catch(() => null);
        if (object instanceof Follow) {
          if (object.actorId?.href !== undo.actorId.href || !object.objectId) return;
          const username = this.urls.usernameOf(object.objectId.href);
          if (username) await service.remoteUnfollowed(username, undo.actorId.href);
        } else if (await this.o.inbound?.undone(undo, object)) {
          // A Like, EmojiReact or Announce of the Undo's own actor: taken back (inbound.ts).
        } else if (object === null) {
          // The Follow named by its id only (and not dereferenceable): the follower row remembers it.
          await service.followUndone(undo.actorId.href, undo.objectId.href);
        }
      })
      .on(Accept, async (_ctx, accept) => {
        if (accept.actorId && accept.objectId) await service.followAccepted(accept.actorId.href, accept.objectId.href);
      })
      .on(Create, async (ctx, create) => this.storeNote(ctx, create))
      .on(Update, async (ctx, update) => this.storeNote(ctx, update))
      .on(Delete, async (_ctx, del) => {
        if (del.actorId && del.objectId) await service.noteDeleted(del.objectId.href, del.actorId.href);
        await this.o.inbound?.deleted(del);
      })
      .on(Like, async (_ctx, like) => this.o.inbound?.reacted(like))
      .on(EmojiReact, async (_ctx, react) => this.o.inbound?.reacted(react))
      .on(Announce, async (_ctx, announce) => this.o.inbound?.announced(announce))
      // Every other type: accepted (202) and dropped, told at debug level.
      .on(Activity, async (_ctx, activity) => {
        if (this.o.inbound) this.o.inbound.unhandled(activity);
        else this.o.log.debug?.({ activity_id: activity.id?.href ?? null, type: activity.constructor.name }, 'inbound activity dropped');
      })
      .onError((_ctx, error) => this.o.log.warn({ err: error }, 'federation inbox listener failed'));
  }

  private loadersOf(ctx: { documentLoader: DocumentLoader; contextLoader: DocumentLoader }): Loaders {
    return { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  }

  private async storeNote(ctx: InboxContext<void>, activity: Create | Update): Promise<void> {
    if (!activity.actorId) return;
    const object = await activity.getObject(ctx).catch(() => null);
    // Replies to local content, edits of them, Update(Person): inbound.ts's; other notes go on to the feed's store.
    const kind = activity instanceof Create ? 'create' : 'update';
    if (this.o.inbound && (await this.o.inbound.noteOrActor(ctx, activity, kind, object))) return;
    if (!(object instanceof Note)) return;
    const post = await toRemotePost(object, activity.actorId.href, this.loadersOf(ctx), this.o.clock.now());
    // Only an actor's own notes: the author must be the one who signed the activity.
    if (!post || post.actor_url !== activity.actorId.href) return;
    await this.o.service.noteReceived(post);
  }

  /** Whether the HTTP app should hand this path to `fetch` (before reading any body). */
  matches(path: string, request?: { method: string; headers: Record<string, string | string[] | undefined> }): boolean {
    return FEDERATION_PATHS.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)) || !!this.o.fetchable?.claims(path, request);
  }

  /** Answers one federation request (the Koa mount converts to and from Fetch API objects). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const answered = await this.o.fetchable?.handle(request);
    if (answered) return answered;
    const documents: Record<string, (url: URL) => Promise<Response>> = {
      '/fediverse/actor.php': (u) => this.actorDocument(u),
      '/fediverse/outbox.php': (u) => this.outboxDocument(u),
      '/fediverse/followers.php': (u) => this.followersDocument(u),
      '/fediverse/following.php': (u) => this.followingDocument(u),
    };
    const document = documents[url.pathname];
    if (document) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed here`);
      return document(url);
    }
    const isInbox = url.pathname === SHARED_INBOX_PATH || url.pathname.startsWith(INBOX_PREFIX);
    if (isInbox && request.method === 'POST') {
      const refusal = await this.refuseInbound(request);
      if (refusal) return refusal;
    }
    return this.federation.fetch(request, {
      contextData: undefined,
      onNotFound: () => errorResponse(404, 'not_found', 'Unknown federation resource'),
      onNotAcceptable: () => errorResponse(406, 'not_acceptable', 'Ask for application/activity+json'),
      onUnauthorized: () => errorResponse(401, 'unauthorized', 'Signature required'),
    });
  }

  /**
   * What Fedify's verification leaves to us (DESIGN.md §1.4): a signature over `(request-target)`,
   * `host`, `date` and `digest`, and a body of at most 1 MB. Returns the refusal, or null.
   */
  private async refuseInbound(request: Request): Promise<Response | null> {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > MAX_INBOX_BODY) return errorResponse(413, 'payload_too_large', 'Activity larger than 1 MB');
    const signature = request.headers.get('signature');
    if (!signature) return errorResponse(401, 'signature_required', 'Inbox deliveries must carry an HTTP Signature');
    const headers = /(?:^|,)\s*headers="([^"]*)"/.exec(signature)?.[1]?.toLowerCase().split(/\s+/) ?? [];
    for (const required of ['(request-target)', 'host', 'date', 'digest']) {
      if (!headers.includes(required)) return errorResponse(401, 'signature_incomplete', `The signature must cover ${required}`);
    }
    if (!request.headers.get('digest')) return errorResponse(401, 'digest_required', 'Inbox deliveries must carry a Digest header');
    // The signer's server, from its key id: a suspended one is refused before its key is fetched or
    // anything is stored (Fedify then checks that this key is the activity's actor's).
    const keyId = /(?:^|,)\s*keyId="([^"]*)"/.exec(signature)?.[1];
    if (!keyId) return errorResponse(401, 'signature_incomplete', 'The signature must name its keyId');
    if (await this.o.suspended?.isSuspended(keyId))
      return errorResponse(403, 'domain_blocked', 'This server is blocked by the administrators of this instance');
    return null;
  }

  private async userOf(url: URL): Promise<UserRecord | null> {
    const username = url.searchParams.get('username');
    return username ? this.o.service.localUser(username) : null;
  }

  private async activityJson(object: {
    toJsonLd(o: { format: 'compact'; contextLoader: DocumentLoader }): Promise<unknown>;
  }): Promise<Response> {
    const body = await object.toJsonLd({ format: 'compact', contextLoader: this.loaders.contextLoader });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' } });
  }

  private async actorDocument(url: URL): Promise<Response> {
    const user = await this.userOf(url);
    if (!user) return errorResponse(404, 'user_not_found', 'User not found');
    return this.activityJson(await this.person(user));
  }

  /** The 20 latest public posts as Create(Note); a private account's posts are not public: none. */
  private async outboxDocument(url: URL): Promise<Response> {
    const user = await this.userOf(url);
    if (!user) return errorResponse(404, 'user_not_found', 'User not found');
    const posts = user.is_private ? [] : await this.o.posts.latest(user.id, OUTBOX_SIZE);
    const total = user.is_private ? 0 : await this.o.posts.count(user.id);
    const items = posts.map((p) => this.o.activities.postActivity('create', p, user, 'public', this.o.clock.now()));
    return this.activityJson(new OrderedCollection({ id: new URL(this.urls.outbox(user.username)), totalItems: total, items }));
  }

  /** The total, and `&page=N` pages of follower ids (a private account shows its total only). */
  private async followersDocument(url: URL): Promise<Response> {
    const user = await this.userOf(url);
    if (!user) return errorResponse(404, 'user_not_found', 'User not found');
    const total = await this.o.follows.countFollowers(user.id);
    const id = new URL(this.urls.followers(user.username));
    const pageParam = url.searchParams.get('page');
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    if (pageParam === null || user.is_private) {
      return this.activityJson(
        new OrderedCollection({ id, totalItems: total, first: user.is_private ? null : new URL(this.urls.followers(user.username, 1)) }),
      );
    }
    if (!/^\d{1,6}$/.test(pageParam) || Number(pageParam) < 1)
      return errorResponse(400, 'invalid_page', 'page must be a positive whole number');
    const page = Number(pageParam);
    const list = await this.o.follows.followers(user.id, pageRequest(page, PAGE_SIZE));
    return this.activityJson(
      new OrderedCollectionPage({
        id: new URL(this.urls.followers(user.username, page)),
        partOf: id,
        totalItems: total,
        items: list.items.map((f) => new URL(f.actor_url)),
        next: page < pages ? new URL(this.urls.followers(user.username, page + 1)) : null,
        prev: page > 1 ? new URL(this.urls.followers(user.username, page - 1)) : null,
      }),
    );
  }

  private async followingDocument(url: URL): Promise<Response> {
    const user = await this.userOf(url);
    if (!user) return errorResponse(404, 'user_not_found', 'User not found');
    const total = await this.o.follows.countFollowing(user.id);
    return this.activityJson(new OrderedCollection({ id: new URL(this.urls.following(user.username)), totalItems: total }));
  }
}
