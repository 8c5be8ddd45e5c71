import type { Actor } from '../shared/actor.js';
import { Invalid } from '../shared/errors.js';
import { putReaction, type ReactionChange, type ReactionSlots, removeReaction } from '../shared/reaction-rule.js';
import type { Timestamp } from '../shared/time.js';
import { MESSAGE_REACTIONS, type ReactionSummaries } from './ports.js';

/** A message reaction's type must be one the app offers. */
export function checkReaction(reaction: string): string {
  if (!(MESSAGE_REACTIONS as readonly string[]).includes(reaction)) {
    throw Invalid.field('reaction_type', `must be one of ${MESSAGE_REACTIONS.join(', ')}`);
  }
  return reaction;
}

/** The reactions part of a message store: private messages and messaging-group messages keep them alike. */
export interface MessageReactionStore {
  react(messageId: number, userId: number, reaction: string, at: Timestamp): Promise<void>;
  unreact(messageId: number, userId: number): Promise<boolean>;
  reactions(messageIds: number[], viewerId: number): Promise<ReactionSummaries>;
}

/**
 * The message store as the shared reaction rule's slots (shared/reaction-rule.ts). The store writes a
 * reaction in one statement (an upsert); what the put changed is told by the user's own reaction read
 * just before it, which is exact for one user's taps in turn (two taps of one user at once may both
 * read "added"). Messages announce no reaction (the app has no notification for them), so no notice
 * hangs on that answer.
 */
export function messageReactionSlots(store: MessageReactionStore): ReactionSlots<number> {
  return {
    async put(messageId, userId, type, at): Promise<ReactionChange> {
      const before = (await store.reactions([messageId], userId)).mine.get(messageId);
      if (before === type) return 'unchanged';
      await store.react(messageId, userId, type, at);
      return before === undefined ? 'added' : 'changed';
    },
    remove: (messageId, userId) => store.unreact(messageId, userId),
  };
}

/**
 * Reacting to a message and taking the reaction back, written once for both message kinds: the type is
 * checked, then the kind's access rule (`mayReact`: a party to the conversation, a member of the group),
 * then the shared reaction rule (one reaction per user and message: add, change, remove) runs without a
 * notice, as messages notify on nothing; the answer is the message's counts by type (the wire's
 * `reactions`).
 */
export class MessageReactions {
  private readonly slots: ReactionSlots<number>;

  constructor(
    private readonly store: MessageReactionStore,
    private readonly now: () => Timestamp,
  ) {
    this.slots = messageReactionSlots(store);
  }

  async react(actor: Actor, messageId: number, reaction: string, mayReact: () => Promise<unknown>): Promise<Record<string, number>> {
    checkReaction(reaction);
    await mayReact();
    await putReaction(this.slots, messageId, actor.userId, reaction, this.now());
    return this.counts(actor, messageId);
  }

  async unreact(actor: Actor, messageId: number, mayReact: () => Promise<unknown>): Promise<Record<string, number>> {
    await mayReact();
    await removeReaction(this.slots, messageId, actor.userId);
    return this.counts(actor, messageId);
  }

  private async counts(actor: Actor, messageId: number): Promise<Record<string, number>> {
    return (await this.store.reactions([messageId], actor.userId)).counts.get(messageId) ?? {};
  }
}
