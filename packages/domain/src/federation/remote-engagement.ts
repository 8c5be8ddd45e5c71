import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import { COMMENT_MAX_LENGTH, type ReactionType } from '../content/model.js';
import { composeComment } from '../content/post-composition.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { DomainPolicy } from './domain-blocks.js';
import type { RemoteActor } from './model.js';
import type { RemoteActorRepository, RemoteDirectory } from './ports.js';
import { type FederationAudience, federationAudienceOf } from './rules.js';

const replyNotFound = () => new NotFound('Reply not found', 'remote_reply_not_found');

/** A remote Note as a reaction or a reply needs it: its id, its author, and whether it is public. */
export interface RemoteNote {
  object_id: string;
  actor_url: string;
  public: boolean;
}

/** Fetches a remote Note by its URL (the guarded, in secure mode signed, document loader). */
export interface RemoteNoteResolver {
  /**
   * The Note at `url`, when it is one and its id and author are on the server that answered; null
   * otherwise. Throws Invalid `remote_address_refused` for an address off the public internet, and
   * Invalid `remote_object_is_local` for one of this server's own objects.
   */
  note(url: string): Promise<RemoteNote | null>;
}
export const RemoteNoteResolver = token<RemoteNoteResolver>('federation.RemoteNoteResolver');

/** A local user's reaction to a remote Note: one per user and Note, with the activity an Undo names. */
export interface OutboundReaction {
  user_id: number;
  object_id: string;
  /** The Note's author, whose inbox received the activity (and will receive the Undo). */
  actor_url: string;
  reaction_type: ReactionType;
  activity_id: string;
  reacted_at: Timestamp;
}

/** A local user's reply to a remote Note, kept so that its Note has an id and its author a record. */
export interface OutboundReply {
  id: number;
  user_id: number;
  /** The Note replied to (`inReplyTo`). */
  object_id: string;
  actor_url: string;
  content: string;
  audience: FederationAudience | 'direct';
  created_at: Timestamp;
  /** When it was last edited (`Update(Note)`); null when never. */
  updated_at: Timestamp | null;
}
export type NewOutboundReply = Omit<OutboundReply, 'id' | 'updated_at'>;

export interface OutboundInteractionRepository {
  /** Stores the reaction unless the user has one on this Note (one conditional insert): true when this call stored it. */
  addReaction(reaction: OutboundReaction): Promise<boolean>;
  findReaction(userId: number, objectId: string): Promise<OutboundReaction | null>;
  /**
   * Replaces the reaction whose activity is `previousActivityId` (one conditional update): true when this
   * call replaced it, false when another request changed or removed it meanwhile.
   */
  replaceReaction(
    previous: OutboundReaction,
    next: Pick<OutboundReaction, 'reaction_type' | 'activity_id' | 'reacted_at'>,
  ): Promise<boolean>;
  /** Removes the reaction whose activity is this one (one conditional delete): true for the one caller that removed it. */
  removeReaction(reaction: OutboundReaction): Promise<boolean>;
  addReply(reply: NewOutboundReply): Promise<OutboundReply>;
  findReply(id: number): Promise<OutboundReply | null>;
  /** Replaces the text of the user's reply (one conditional update): false when it is not theirs or is gone. */
  editReply(reply: Pick<OutboundReply, 'id' | 'user_id'>, edit: { content: string; updated_at: Timestamp }): Promise<boolean>;
  /** Removes the user's reply (one conditional delete): true for the one caller that removed it. */
  removeReply(reply: Pick<OutboundReply, 'id' | 'user_id'>): Promise<boolean>;
}
export const OutboundInteractionRepository = token<OutboundInteractionRepository>('federation.OutboundInteractionRepository');

/** What reactions and replies to remote Notes send, queued in the unit of work of the row they go with. */
export interface RemoteEngagementOutbox {
  newActivityId(): string;
  /** The Note id of a reply (what its Create carried and a fetch answers). */
  replyNoteId(replyId: number): string;
  /** `Like` (a `like`) or `EmojiReact` with the type's emoji, to the Note's author. */
  react(user: UserRecord, author: RemoteActor, reaction: OutboundReaction): Promise<void>;
  /** `Undo` of that activity, to the Note's author. */
  unreact(user: UserRecord, author: RemoteActor, reaction: OutboundReaction): Promise<void>;
  /** `Create(Note)` with `inReplyTo`, to the Note's author (and the replier's followers when public); returns the reply's Note id. */
  reply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<string>;
  /** `Update(Note)` of the edited reply, to the same audience as its Create. */
  editReply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<void>;
  /** `Delete` of the reply's Note (a `Tombstone`), to the same audience as its Create. */
  deleteReply(user: UserRecord, author: RemoteActor, reply: OutboundReply): Promise<void>;
}

export interface RemoteReactionResult {
  object_url: string;
  reaction_type: ReactionType;
  /** False when the user had this reaction on the Note already: nothing was sent. */
  changed: boolean;
}

/**
 * Reactions and replies of local users to remote posts (fediverse.php `react_remote`, `unreact_remote`,
 * `reply_remote`, `edit_remote_reply`, `delete_remote_reply`; docs/decisions/0245, 0246). The Note is fetched first (nothing is stored for one that does
 * not answer); each change is one conditional write, and only the request whose write changed the row
 * queues the activity, in the same unit of work.
 */
export class RemoteEngagement {
  constructor(
    private readonly users: UserRepository,
    private readonly actors: RemoteActorRepository,
    private readonly directory: RemoteDirectory,
    private readonly notes: RemoteNoteResolver,
    private readonly store: OutboundInteractionRepository,
    private readonly outbox: RemoteEngagementOutbox,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly policy?: Pick<DomainPolicy, 'isSuspended'>,
  ) {}

  async react(actor: Actor, objectUrl: string, type: ReactionType): Promise<RemoteReactionResult> {
    const { user, note, author } = await this.target(actor, objectUrl);
    const next = { reaction_type: type, activity_id: this.outbox.newActivityId(), reacted_at: toTimestamp(this.clock.now()) };
    const changed = await this.uow.run(async () => {
      const reaction: OutboundReaction = { user_id: user.id, object_id: note.object_id, actor_url: author.actor_url, ...next };
      if (await this.store.addReaction(reaction)) {
        await this.outbox.react(user, author, reaction);
        return true;
      }
      // Reacted already: the same reaction is no change; another one replaces it (Undo of the old, then the new).
      const previous = await this.store.findReaction(user.id, note.object_id);
      if (!previous || previous.reaction_type === type) return false;
      if (!(await this.store.replaceReaction(previous, next))) return false;
      await this.outbox.unreact(user, author, previous);
      await this.outbox.react(user, author, { ...previous, ...next, actor_url: author.actor_url });
      return true;
    });
    return { object_url: note.object_id, reaction_type: type, changed };
  }

  /**
   * Takes the reaction back: `Undo` of its activity. Without one it answers `removed: false`, as
   * reactions.php's DELETE does; the Note is not fetched (the stored reaction names it and its author).
   */
  async unreact(actor: Actor, objectUrl: string): Promise<{ object_url: string; removed: boolean }> {
    const user = await this.liveUser(actor.userId);
    const reaction = await this.store.findReaction(user.id, objectUrl);
    if (!reaction) return { object_url: objectUrl, removed: false };
    const author = await this.actors.find(reaction.actor_url);
    const removed = await this.uow.run(async () => {
      if (!(await this.store.removeReaction(reaction))) return false;
      // A domain suspended since, or an author no longer cached, gets no Undo: the row goes all the same.
      if (author && !(await this.suspended(author.actor_url))) await this.outbox.unreact(user, author, reaction);
      return true;
    });
    return { object_url: objectUrl, removed };
  }

  /**
   * Replies to the Note. A public account's reply to a public Note is public (to the followers too, as
   * its posts are); any other reply goes to the Note's author alone: neither a private account's words
   * nor a reply to a followers-only Note reach further than the author (docs/decisions/0050).
   */
  async reply(actor: Actor, objectUrl: string, content: string): Promise<OutboundReply & { note_id: string }> {
    const text = composeComment(content, COMMENT_MAX_LENGTH);
    const { user, note, author } = await this.target(actor, objectUrl);
    const account = federationAudienceOf({ kind: 'account', authorId: user.id, isPrivate: user.is_private });
    const audience = account === 'public' && note.public ? 'public' : 'direct';
    return this.uow.run(async () => {
      const reply = await this.store.addReply({
        user_id: user.id,
        object_id: note.object_id,
        actor_url: author.actor_url,
        content: text,
        audience,
        created_at: toTimestamp(this.clock.now()),
      });
      return { ...reply, note_id: await this.outbox.reply(user, author, reply) };
    });
  }

  /**
   * Edits the user's reply and sends `Update(Note)` to whoever received its Create. Another user's
   * reply, or one deleted, is 404 `remote_reply_not_found`, as a reply that never existed.
   */
  async editReply(actor: Actor, replyId: number, content: string): Promise<OutboundReply & { note_id: string }> {
    const text = composeComment(content, COMMENT_MAX_LENGTH);
    const { user, reply } = await this.ownReply(actor, replyId);
    const edit = { content: text, updated_at: toTimestamp(this.clock.now()) };
    const edited: OutboundReply = { ...reply, ...edit };
    await this.uow.run(async () => {
      if (!(await this.store.editReply(reply, edit))) throw replyNotFound();
      await this.toAuthorOf(reply, (author) => this.outbox.editReply(user, author, edited));
    });
    return { ...edited, note_id: this.outbox.replyNoteId(edited.id) };
  }

  /**
   * Deletes the user's reply and sends `Delete` of its Note. One conditional delete: of concurrent
   * deletes, one removes the row and sends; the others find it gone (404, as a later delete).
   */
  async deleteReply(actor: Actor, replyId: number): Promise<OutboundReply> {
    const { user, reply } = await this.ownReply(actor, replyId);
    await this.uow.run(async () => {
      if (!(await this.store.removeReply(reply))) throw replyNotFound();
      await this.toAuthorOf(reply, (author) => this.outbox.deleteReply(user, author, reply));
    });
    return reply;
  }

  private async ownReply(actor: Actor, replyId: number): Promise<{ user: UserRecord; reply: OutboundReply }> {
    const user = await this.liveUser(actor.userId);
    const reply = await this.store.findReply(replyId);
    if (!reply || reply.user_id !== user.id) throw replyNotFound();
    return { user, reply };
  }

  /** Sends to the replied-to author unless the domain is suspended since or the author is no longer cached: the change stands all the same. */
  private async toAuthorOf(reply: OutboundReply, send: (author: RemoteActor) => Promise<void>): Promise<void> {
    const author = await this.actors.find(reply.actor_url);
    if (author && !(await this.suspended(author.actor_url))) await send(author);
  }

  private async liveUser(id: number): Promise<UserRecord> {
    const user = await this.users.findById(id);
    if (!user || user.deleted_at) throw new NotFound('User not found', 'user_not_found');
    return user;
  }

  private suspended(url: string): Promise<boolean> {
    return this.policy ? this.policy.isSuspended(url) : Promise.resolve(false);
  }

  private async refuseSuspended(url: string): Promise<void> {
    if (await this.suspended(url)) throw new Forbidden('This server is blocked by the administrators of this instance', 'domain_blocked');
  }

  /** The caller, the Note (fetched now) and its author (cached, else fetched); nothing is stored before all three are known. */
  private async target(actor: Actor, objectUrl: string): Promise<{ user: UserRecord; note: RemoteNote; author: RemoteActor }> {
    const user = await this.liveUser(actor.userId);
    await this.refuseSuspended(objectUrl);
    const note = await this.notes.note(objectUrl);
    if (!note) throw new NotFound('No fediverse post answers at this address', 'remote_object_not_found');
    await this.refuseSuspended(note.actor_url);
    const cached = await this.actors.find(note.actor_url);
    const author = cached ?? (await this.directory.resolve(note.actor_url));
    if (!author || author.actor_url !== note.actor_url)
      throw new NotFound('The author of this fediverse post does not answer', 'remote_object_not_found');
    if (!cached) await this.actors.upsert(author);
    return { user, note, author };
  }
}
