import type { Actor } from '../shared/actor.js';
import { token } from '../shared/token.js';

/** A friend request was sent (a new one, or a rejected one asked again). */
export interface FriendRequestedEvent {
  /** The sender. */
  actor: Actor;
  recipientId: number;
  requestId: number;
}

/** A pending friend request was accepted by its addressee: the two are friends. */
export interface FriendAcceptedEvent {
  /** The addressee, who accepted. */
  actor: Actor;
  senderId: number;
  requestId: number;
}

/**
 * What happens to friend requests, for the contexts that act on it (the notifications). Multi-bound as
 * the follow listeners (follow-events.ts): every module may add one with
 * `w.bind(FriendEventListeners, …)`; FriendService calls each, in binding order, INSIDE the unit of work
 * (and the pair lock) of the change, so what they write commits with it, and a listener that throws
 * undoes the change. Called only when the request really moved (a repeated pending request calls nothing).
 */
export interface FriendEventListener {
  requested?(event: FriendRequestedEvent): Promise<void>;
  accepted?(event: FriendAcceptedEvent): Promise<void>;
}
export const FriendEventListeners = token<FriendEventListener>('social.FriendEventListeners');

/** Calls every bound listener of an event in turn. */
export class FriendEvents {
  constructor(private readonly listeners: readonly FriendEventListener[] = []) {}

  async requested(event: FriendRequestedEvent): Promise<void> {
    for (const l of this.listeners) await l.requested?.(event);
  }

  async accepted(event: FriendAcceptedEvent): Promise<void> {
    for (const l of this.listeners) await l.accepted?.(event);
  }
}
