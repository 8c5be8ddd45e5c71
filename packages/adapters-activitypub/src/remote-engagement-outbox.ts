import { randomUUID } from 'node:crypto';
import { type Activity, Create, EmojiReact, Like, Mention, Note, PUBLIC_COLLECTION, Undo } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type Clock, fromTimestamp, toTimestamp } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import {
  emojiOfReaction,
  type FederationQueue,
  handleOf,
  type OutboundReaction,
  type OutboundReply,
  type RemoteActor,
  type RemoteEngagementOutbox,
} from '@plaza/domain/federation';
import { type ActivityBuilder, DELIVER_CHANNEL, type Delivery, FANOUT_CHANNEL, type FanOut, noteHtml } from './outbox.js';
import type { FederationUrls } from './urls.js';

/**
 * What a local user's reaction or reply to a remote Note sends (docs/decisions/0245), queued in the
 * caller's unit of work: `Like` for a like and `EmojiReact` with the type's emoji for the five others
 * (Pleroma's and Misskey's reading; Mastodon counts a `Like` only), their `Undo`, and `Create(Note)`
 * with `inReplyTo` and a `Mention` of the author, so that the author's server threads and notifies it.
 */
export class QueuedRemoteEngagementOutbox implements RemoteEngagementOutbox {
  constructor(
    private readonly urls: FederationUrls,
    private readonly activities: ActivityBuilder,
    private readonly queue: FederationQueue,
    private readonly clock: Clock,
  ) {}

  newActivityId(): string {
    return this.urls.activity(randomUUID());
  }

  async react(user: UserRecord, author: RemoteActor, reaction: OutboundReaction): Promise<void> {
    await this.deliver(user, author, this.reaction(user, author, reaction));
  }

  async unreact(user: UserRecord, author: RemoteActor, reaction: OutboundReaction): Promise<void> {
    const actor = new URL(this.urls.actor(user.username));
    const undo = new Undo({
      id: new URL(this.newActivityId()),
      actor,
      tos: [new URL(author.actor_url)],
      object: this.reaction(user, author, reaction),
    });
    await this.deliver(user, author, undo);
  }

  async reply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<string> {
    const actor = new URL(this.urls.actor(user.username));
    const authorUrl = new URL(author.actor_url);
    const id = this.urls.remoteReply(reply.id);
    const published = Temporal.Instant.fromEpochMilliseconds(fromTimestamp(reply.created_at).getTime());
    // A public reply is addressed as the account's public posts, with the author in cc; any other to the author alone.
    const { tos, ccs } =
      reply.audience === 'public'
        ? { tos: [PUBLIC_COLLECTION], ccs: [new URL(this.urls.followers(user.username)), authorUrl] }
        : { tos: [authorUrl], ccs: [] };
    const note = new Note({
      id: new URL(id),
      attribution: actor,
      content: noteHtml(reply.content),
      replyTarget: new URL(reply.object_id),
      published,
      tos,
      ccs,
      tags: [new Mention({ href: authorUrl, name: handleOf(author) })],
    });
    const create = new Create({ id: new URL(`${id}#create`), actor, published, tos, ccs, object: note });
    if (reply.audience !== 'public') {
      await this.deliver(user, author, create);
      return id;
    }
    // The followers' inboxes join the author's at fan-out (each inbox once).
    const payload: FanOut = {
      user_id: user.id,
      username: user.username,
      activity: await this.activities.json(create),
      inboxes: [author.shared_inbox_url ?? author.inbox_url],
    };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
    return id;
  }

  /** The reaction's activity, rebuilt with its stored id (the Undo embeds it as it was sent). */
  private reaction(user: UserRecord, author: RemoteActor, reaction: OutboundReaction): Activity {
    const values = {
      id: new URL(reaction.activity_id),
      actor: new URL(this.urls.actor(user.username)),
      object: new URL(reaction.object_id),
      tos: [new URL(author.actor_url)],
    };
    return reaction.reaction_type === 'like'
      ? new Like(values)
      : new EmojiReact({ ...values, content: emojiOfReaction(reaction.reaction_type) });
  }

  private async deliver(user: UserRecord, author: RemoteActor, activity: Activity): Promise<void> {
    const payload: Delivery = {
      user_id: user.id,
      username: user.username,
      inbox: author.inbox_url,
      activity: await this.activities.json(activity),
    };
    await this.queue.enqueue([{ channel: DELIVER_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }
}
