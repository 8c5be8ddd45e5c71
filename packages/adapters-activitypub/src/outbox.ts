import { randomUUID } from 'node:crypto';
import {
  Accept,
  type Activity,
  Create,
  Delete,
  Document,
  Follow,
  Hashtag,
  Image,
  Note,
  PUBLIC_COLLECTION,
  Reject,
  Tombstone,
  Undo,
  Update,
  Video,
  signRequest,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type Clock, fromTimestamp, type OutboxLane, toTimestamp } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import type { PostRecord } from '@plaza/domain/content';
import {
  DELIVERY_MAX_ATTEMPTS,
  type FederationAudience,
  type FederationOutbox,
  type FederationQueue,
  type OutboundComment,
  type QueuedMessage,
  type RemoteActor,
  type RemoteFollowRepository,
  remoteMentionsOf,
  retryDelaySeconds,
} from '@plaza/domain/federation';
import type { DocumentLoader } from '@fedify/fedify';
import { ACTIVITY_ACCEPT } from './document-loader.js';
import { DatabaseMessageQueue, FEDIFY_CHANNEL } from './fedify-store.js';
import type { ActorKeys } from './keys.js';
import { linkHashtags, type MentionResolver, withMentions } from './mentions.js';
import { GuardRefusal, type GuardedClient } from './ssrf.js';
import { commentActivity } from './comment-note.js';
import { noteHtml } from './note-html.js';
import type { FederationUrls } from './urls.js';

/** One activity to POST to one inbox, signed as `user_id`. */
export interface Delivery {
  user_id: number;
  username: string;
  inbox: string;
  activity: unknown;
  /**
   * Headers and body signed when it was queued, sent as they are: a deleted account's Delete(Person),
   * whose key pair is erased with the account (account-lifecycle.ts). Valid within the receivers'
   * date window (an hour for Fedify, twelve for Mastodon); retries after it are refused there.
   */
  presigned?: { headers: Record<string, string>; body: string };
}

/**
 * One activity for every remote follower of `user_id` (expanded to one delivery per inbox by the
 * worker), or of the users `followers_of` names: a comment reaches its post's author's followers
 * (docs/decisions/0240). Rows queued before that field existed keep their meaning.
 */
export interface FanOut {
  user_id: number;
  username: string;
  activity: unknown;
  /** Whose remote followers get it (default: `user_id`'s). */
  followers_of?: number[];
  /** Remote handles the post mentions (a public post's): resolved, linked and delivered to by the worker (mentions.ts). */
  mentions?: string[];
  /** Inboxes that get it besides the followers' (a public reply's author: remote-engagement-outbox.ts; a thread's remote repliers, 0240). */
  inboxes?: string[];
}

export { noteHtml } from './note-html.js';

export const DELIVER_CHANNEL = 'deliver';
export const FANOUT_CHANNEL = 'fanout';

function mediaTypeOf(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    mp4: 'video/mp4',
    webm: 'video/webm',
    mov: 'video/quicktime',
    m4v: 'video/mp4',
  };
  return types[ext] ?? 'application/octet-stream';
}

const instant = (ts: string) => Temporal.Instant.fromEpochMilliseconds(fromTimestamp(ts).getTime());

/** Builds Plaza's activities with Fedify's vocabulary, and serializes them as compact JSON-LD. */
export class ActivityBuilder {
  constructor(
    private readonly urls: FederationUrls,
    private readonly contextLoader: DocumentLoader,
  ) {}

  addressing(username: string, audience: FederationAudience): { tos: URL[]; ccs: URL[] } {
    const followers = new URL(this.urls.followers(username));
    return audience === 'public' ? { tos: [PUBLIC_COLLECTION], ccs: [followers] } : { tos: [followers], ccs: [] };
  }

  note(post: PostRecord, author: UserRecord, audience: FederationAudience): Note {
    const { tos, ccs } = this.addressing(author.username, audience);
    return new Note({
      id: new URL(this.urls.note(post.id)),
      attribution: new URL(this.urls.actor(author.username)),
      content: linkHashtags(noteHtml(post.content), post.tags, (t) => this.urls.tag(t)),
      published: instant(post.created_at),
      updated: post.updated_at ? instant(post.updated_at) : null,
      url: new URL(this.urls.note(post.id)),
      tos,
      ccs,
      attachments: post.media.flatMap((m) => {
        const url = this.urls.media(m, 'posts');
        if (!url) return [];
        const mediaType = mediaTypeOf(m);
        const values = { url: new URL(url), mediaType };
        return [
          mediaType.startsWith('image/') ? new Image(values) : mediaType.startsWith('video/') ? new Video(values) : new Document(values),
        ];
      }),
      tags: post.tags.map((t) => new Hashtag({ name: `#${t}`, href: new URL(this.urls.tag(t)) })),
    });
  }

  postActivity(
    kind: 'create' | 'update' | 'delete',
    post: PostRecord,
    author: UserRecord,
    audience: FederationAudience,
    at: Date,
  ): Activity {
    const actor = new URL(this.urls.actor(author.username));
    const { tos, ccs } = this.addressing(author.username, audience);
    const noteId = this.urls.note(post.id);
    if (kind === 'delete') {
      return new Delete({ id: new URL(`${noteId}#delete`), actor, tos, ccs, object: new Tombstone({ id: new URL(noteId) }) });
    }
    const object = this.note(post, author, audience);
    if (kind === 'create')
      return new Create({ id: new URL(`${noteId}#create`), actor, published: instant(post.created_at), tos, ccs, object });
    return new Update({
      id: new URL(`${noteId}#update-${at.getTime()}`),
      actor,
      published: Temporal.Instant.fromEpochMilliseconds(at.getTime()),
      tos,
      ccs,
      object,
    });
  }

  json(activity: Activity): Promise<unknown> {
    return activity.toJsonLd({ format: 'compact', contextLoader: this.contextLoader });
  }
}

/**
 * `FederationOutbox` on the persisted queue: each call only inserts queue rows, in the caller's unit
 * of work (the post, the follow and the activity about them commit together); `FederationWorker`
 * delivers them after the commit.
 */
export class QueuedFederationOutbox implements FederationOutbox {
  constructor(
    private readonly urls: FederationUrls,
    private readonly activities: ActivityBuilder,
    private readonly queue: FederationQueue,
    private readonly clock: Clock,
  ) {}

  private async deliver(user: UserRecord, inbox: string, activity: Activity): Promise<void> {
    const payload: Delivery = { user_id: user.id, username: user.username, inbox, activity: await this.activities.json(activity) };
    await this.queue.enqueue([{ channel: DELIVER_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }

  newActivityId(): string {
    return this.urls.activity(randomUUID());
  }

  async follow(user: UserRecord, remote: RemoteActor, followId: string): Promise<void> {
    await this.deliver(
      user,
      remote.inbox_url,
      new Follow({ id: new URL(followId), actor: new URL(this.urls.actor(user.username)), object: new URL(remote.actor_url) }),
    );
  }

  async unfollow(user: UserRecord, remote: RemoteActor, followId: string): Promise<void> {
    const actor = new URL(this.urls.actor(user.username));
    const follow = new Follow({ id: new URL(followId), actor, object: new URL(remote.actor_url) });
    await this.deliver(user, remote.inbox_url, new Undo({ id: new URL(this.urls.activity(randomUUID())), actor, object: follow }));
  }

  async accept(user: UserRecord, remote: RemoteActor, followId: string): Promise<void> {
    const actor = new URL(this.urls.actor(user.username));
    const follow = new Follow({ id: new URL(followId), actor: new URL(remote.actor_url), object: actor });
    await this.deliver(user, remote.inbox_url, new Accept({ id: new URL(this.urls.activity(randomUUID())), actor, object: follow }));
  }

  /** Reject(Follow): a private account declined the request (docs/decisions/0210). */
  async reject(user: UserRecord, remote: RemoteActor, followId: string): Promise<void> {
    const actor = new URL(this.urls.actor(user.username));
    const follow = new Follow({ id: new URL(followId), actor: new URL(remote.actor_url), object: actor });
    await this.deliver(user, remote.inbox_url, new Reject({ id: new URL(this.urls.activity(randomUUID())), actor, object: follow }));
  }

  async post(kind: 'create' | 'update' | 'delete', post: PostRecord, author: UserRecord, audience: FederationAudience): Promise<void> {
    const activity = this.activities.postActivity(kind, post, author, audience, this.clock.now());
    // Mentions are resolved by the worker, after the commit: a slow or absent server never holds up the post.
    const mentions = audience === 'public' ? remoteMentionsOf(post.content) : [];
    const payload: FanOut = {
      user_id: author.id,
      username: author.username,
      activity: await this.activities.json(activity),
      ...(mentions.length > 0 ? { mentions } : {}),
    };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }

  /** A local comment's Note, fanned out to its post's audience and the thread's remote participants (docs/decisions/0240). */
  async comment(kind: 'create' | 'update' | 'delete', c: OutboundComment): Promise<void> {
    const activity = commentActivity(
      this.urls,
      kind,
      { comment: c.comment, author: c.author, owner: c.owner, audience: c.audience, ccs: c.ccs.map((u) => new URL(u)) },
      this.clock.now(),
    );
    const payload: FanOut = {
      user_id: c.author.id,
      username: c.author.username,
      activity: await this.activities.json(activity),
      followers_of: c.followersOf,
      ...(c.inboxes.length > 0 ? { inboxes: c.inboxes } : {}),
    };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }
}

/** The signed POST of an activity to an inbox (HTTP Signatures over `(request-target)`, host, date, digest). */
export function signedDelivery(
  inbox: string,
  body: string,
  privateKey: Parameters<typeof signRequest>[1],
  keyId: string,
): Promise<Request> {
  const unsigned = new Request(inbox, {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json', Accept: ACTIVITY_ACCEPT },
    body,
  });
  return signRequest(unsigned, privateKey, new URL(keyId));
}

export interface WorkerLog {
  delivered(inbox: string, status: number): void;
  failed(message: QueuedMessage, error: unknown, retryAt: string | null): void;
  /** A delivery to a suspended domain, dropped (docs/decisions/0106). */
  dropped?(inbox: string): void;
}

/** Which destinations are suspended (the cached domain blocks, docs/decisions/0106). */
export interface SuspendedDomains {
  isSuspended(url: string): Promise<boolean>;
}

/** Statuses a retry will not change: the remote refused the activity itself (a 4xx other than 408 and 429). */
const permanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * Works the federation queue (the job of apps/server, every few seconds, in every instance): expands
 * fan-outs into one delivery per follower inbox, signs and POSTs deliveries through the guarded
 * client, and hands Fedify's own tasks to its handler. A failure is retried with exponential
 * backoff (30 s, doubling, `DELIVERY_MAX_ATTEMPTS` attempts), except refusals a retry cannot change.
 */
export class FederationWorker {
  private started = false;

  constructor(
    private readonly queue: FederationQueue,
    private readonly fedify: { queue: DatabaseMessageQueue; start(): void },
    private readonly follows: RemoteFollowRepository,
    private readonly keys: ActorKeys,
    private readonly urls: FederationUrls,
    private readonly client: GuardedClient,
    private readonly clock: Clock,
    private readonly log: WorkerLog,
    private readonly suspended: SuspendedDomains = { isSuspended: async () => false },
    /** Resolves a post's remote mentions at fan-out (none: mentions stay plain text). */
    private readonly mentions: Pick<MentionResolver, 'resolve'> | null = null,
  ) {}

  private startFedify(): void {
    if (!this.started) {
      this.fedify.start();
      this.started = true;
    }
  }

  /** Claims up to `limit` due messages. The lease outlives the 10 s timeout of a request by far: a message is not claimed twice while it runs. */
  private claim(limit: number): Promise<QueuedMessage[]> {
    const now = this.clock.now();
    return this.queue.claim(toTimestamp(now), limit, toTimestamp(new Date(now.getTime() + 5 * 60_000)));
  }

  /** Works due messages until none is left (or `max` were handled); returns how many were handled. */
  async drain(max = 500): Promise<number> {
    this.startFedify();
    let handled = 0;
    while (handled < max) {
      const batch = await this.claim(20);
      if (batch.length === 0) break;
      for (const message of batch) await this.handle(message);
      handled += batch.length;
    }
    return handled;
  }

  /**
   * The queue as a BullMQ lane (REDIS_URL; docs/decisions/0215): the relay claims due messages with the
   * same lease and each becomes one BullMQ job. A failure is rescheduled in the table as by `drain` and
   * thrown for BullMQ's retry; on BullMQ's last attempt, or a refusal a retry cannot change, the message
   * is buried (dead, on the Deliveries page) or completed and the job ends without error, so a retry from
   * the Deliveries page relays it again under the same job id.
   */
  readonly lane: OutboxLane = {
    claimDue: async (limit) => {
      this.startFedify();
      return (await this.claim(limit)).map((m) => String(m.id));
    },
    deliver: async (id, last) => {
      this.startFedify();
      const message = Number.isSafeInteger(Number(id)) ? await this.queue.find(Number(id)) : null;
      // Worked already (completed) or dead: nothing to do.
      if (message) await this.handle(message, last ? 'last' : 'rethrow');
    },
  };

  /** `drain`'s mode keeps the table's own retries; a lane's mode throws a retryable failure for BullMQ, or gives up on its last attempt. */
  private async handle(message: QueuedMessage, lane?: 'rethrow' | 'last'): Promise<void> {
    try {
      if (message.channel === FANOUT_CHANNEL) await this.fanOut(message.payload as FanOut);
      else if (message.channel === DELIVER_CHANNEL) await this.deliver(message.payload as Delivery);
      else if (message.channel === FEDIFY_CHANNEL) {
        const listener = this.fedify.queue.listener;
        if (!listener) throw new DeliveryFailure('Fedify has not started its queue', true);
        await listener(message.payload);
      }
      await this.queue.complete(message.id);
    } catch (error) {
      const attempts = message.attempts + 1;
      const retry = !(error instanceof DeliveryFailure && !error.retry) && attempts < DELIVERY_MAX_ATTEMPTS && lane !== 'last';
      if (!retry) {
        // An outbound delivery given up on stays, dead, for the admin panel's queue (retry or discard);
        // Fedify's inbox tasks have their own retries and leave.
        const outbound = message.channel === DELIVER_CHANNEL || message.channel === FANOUT_CHANNEL;
        if (outbound)
          await this.queue.bury(
            message.id,
            attempts,
            error instanceof Error ? error.message : String(error),
            toTimestamp(this.clock.now()),
          );
        else await this.queue.complete(message.id);
        this.log.failed(message, error, null);
        return;
      }
      const due = toTimestamp(new Date(this.clock.now().getTime() + retryDelaySeconds(attempts) * 1000));
      await this.queue.reschedule(message.id, attempts, due, error instanceof Error ? error.message : String(error));
      this.log.failed(message, error, due);
      if (lane === 'rethrow') throw error;
    }
  }

  private async fanOut(fan: FanOut): Promise<void> {
    const mentioned = fan.mentions?.length && this.mentions ? await this.mentions.resolve(fan.mentions) : [];
    const activity = withMentions(fan.activity, mentioned);
    const followers = await Promise.all((fan.followers_of ?? [fan.user_id]).map((id) => this.follows.followerInboxes(id)));
    const all = [...new Set([...followers.flat(), ...mentioned.map((m) => m.inbox), ...(fan.inboxes ?? [])])];
    const suspended = await Promise.all(all.map((inbox) => this.suspended.isSuspended(inbox)));
    const inboxes = all.filter((_, i) => !suspended[i]);
    const due = toTimestamp(this.clock.now());
    await this.queue.enqueue(
      inboxes.map((inbox) => ({
        channel: DELIVER_CHANNEL,
        payload: { user_id: fan.user_id, username: fan.username, inbox, activity } satisfies Delivery,
        due_at: due,
      })),
    );
  }

  private async sign(d: Delivery): Promise<{ headers: Headers; body: string }> {
    const { privateKey } = await this.keys.of(d.user_id);
    const signed = await signedDelivery(d.inbox, JSON.stringify(d.activity), privateKey, this.urls.keyId(d.username));
    return { headers: signed.headers, body: await signed.text() };
  }

  private async deliver(d: Delivery): Promise<void> {
    // Queued before the block (or by a fan-out expanded before it): dropped, not retried.
    if (await this.suspended.isSuspended(d.inbox)) {
      this.log.dropped?.(d.inbox);
      return;
    }
    const { headers, body } = d.presigned ?? (await this.sign(d));
    let response: Response;
    try {
      response = await this.client.fetch(d.inbox, { method: 'POST', headers, body });
    } catch (error) {
      // A private address stays private: no retry. Timeouts and network errors are retried.
      if (error instanceof GuardRefusal && (error.reason === 'private_address' || error.reason === 'scheme'))
        throw new DeliveryFailure(error.message, false);
      throw error;
    }
    if (response.ok) {
      this.log.delivered(d.inbox, response.status);
      return;
    }
    throw new DeliveryFailure(`HTTP ${response.status} from ${d.inbox}`, !permanent(response.status));
  }
}
