import type { Timestamp } from './time.js';

/** What putting a reaction changed: a new one, another type in place of the old, or nothing. */
export type ReactionChange = 'added' | 'changed' | 'unchanged';

/**
 * One reaction per user per target, wherever reactions exist (posts of every surface, comments,
 * private messages, messaging-group messages). The store keeps its counters exact in the same write.
 */
export interface ReactionSlots<Target, Type extends string = string> {
  put(target: Target, userId: number, type: Type, at: Timestamp): Promise<ReactionChange>;
  /** False when the user had no reaction there. */
  remove(target: Target, userId: number): Promise<boolean>;
}

/** Whom a reaction is announced to, if anyone: `notify` runs only when {@link reactionNotifies} says so. */
export interface ReactionNotice {
  notify(change: Exclude<ReactionChange, 'unchanged'>): Promise<void>;
}

/**
 * The reaction rule, written once: adding and changing a reaction tell the owner of the target;
 * putting the same reaction again changes nothing and tells no one; taking one back never tells anyone.
 */
export function reactionNotifies(change: ReactionChange): change is 'added' | 'changed' {
  return change !== 'unchanged';
}

/** Puts the reaction and announces it as the rule says. Run it inside the caller's unit of work. */
export async function putReaction<Target, Type extends string>(
  slots: ReactionSlots<Target, Type>,
  target: Target,
  userId: number,
  type: Type,
  at: Timestamp,
  notice?: ReactionNotice,
): Promise<ReactionChange> {
  const change = await slots.put(target, userId, type, at);
  if (notice && reactionNotifies(change)) await notice.notify(change);
  return change;
}

/** Takes the reaction back; never announced. */
export function removeReaction<Target, Type extends string>(
  slots: ReactionSlots<Target, Type>,
  target: Target,
  userId: number,
): Promise<boolean> {
  return slots.remove(target, userId);
}

/** A store of one reaction per user per target keyed by the target's id (a post of a surface's table), as slots. */
export function reactionSlotsOf<Type extends string>(store: {
  react(targetId: number, userId: number, type: Type, at: Timestamp): Promise<ReactionChange>;
  unreact(targetId: number, userId: number): Promise<boolean>;
}): ReactionSlots<number, Type> {
  return {
    put: (targetId, userId, type, at) => store.react(targetId, userId, type, at),
    remove: (targetId, userId) => store.unreact(targetId, userId),
  };
}
