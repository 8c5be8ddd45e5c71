import { randomUUID } from 'node:crypto';
import { type Activity, Create, Delete, EmojiReact, Like, Tombstone, Undo, Update } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type Clock, fromTimestamp, toTimestamp } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import {
  emojiOfReaction,
  type FederationQueue,
  type OutboundReaction,
  type OutboundReply,
  type RemoteActor,
  type RemoteEngagementOutbox,
} from '@plaza/domain/federation';
import { type ActivityBuilder, DELIVER_CHANNEL, type Delivery, FANOUT_CHANNEL, type FanOut } from './outbox.js';
import { replyAudience, replyNote } from './reply-note.js';
import type { FederationUrls } from './urls.js';

/**
 * What a local user's reaction or reply to a remote Note sends (docs/decisions/0245), queued in the
 * caller's unit of work: `Like` for a like and `EmojiReact` with the type's emoji for the five others
 * (Pleroma's and Misskey's reading; Mastodon counts a `Like` only), their `Undo`, and `Create(Note)`
 * with `inReplyTo` and a `Mention` of the author, so that the author's server threads and notifies it,
 * and that reply's `Update(Note)` and `Delete(Tombstone)` to the same audience (docs/decisions/0246).
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

  replyNoteId(replyId: number): string {
    return this.urls.remoteReply(replyId);
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
    const note = replyNote(this.urls, user.username, reply, author);
    const id = this.urls.remoteReply(reply.id);
    await this.toAudience(user, author, reply, new Create({ ...this.envelope(user, reply), id: new URL(`${id}#create`), object: note }));
    return id;
  }

  async editReply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<void> {
    const note = replyNote(this.urls, user.username, reply, author);
    await this.toAudience(
      user,
      author,
      reply,
      new Update({ ...this.envelope(user, reply), id: new URL(this.newActivityId()), object: note }),
    );
  }

  async deleteReply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<void> {
    const tombstone = new Tombstone({ id: new URL(this.urls.remoteReply(reply.id)) });
    await this.toAudience(
      user,
      author,
      reply,
      new Delete({ ...this.envelope(user, reply), published: this.now(), id: new URL(this.newActivityId()), object: tombstone }),
    );
  }

  private now() {
    return Temporal.Instant.fromEpochMilliseconds(this.clock.now().getTime());
  }

  /** The actor and addressing every activity about a reply carries (the same as its Create's), published when the reply was written or edited. */
  private envelope(user: UserRecord, reply: OutboundReply) {
    const published = Temporal.Instant.fromEpochMilliseconds(fromTimestamp(reply.updated_at ?? reply.created_at).getTime());
    return { actor: new URL(this.urls.actor(user.username)), published, ...replyAudience(this.urls, user.username, reply) };
  }

  /** A direct reply's activities go to the author alone; a public one's to the author and, at fan-out, the followers (each inbox once). */
  private async toAudience(user: UserRecord, author: RemoteActor, reply: OutboundReply, activity: Activity): Promise<void> {
    if (reply.audience !== 'public') return this.deliver(user, author, activity);
    const payload: FanOut = {
      user_id: user.id,
      username: user.username,
      activity: await this.activities.json(activity),
      inboxes: [author.shared_inbox_url ?? author.inbox_url],
    };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
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
