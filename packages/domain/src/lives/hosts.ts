import { canModerate, type Actor } from '../shared/actor.js';
import type { LiveRecord } from './model.js';
import type { LiveRepository } from './ports.js';

/**
 * Who runs a live with its creator: the moderators the creator appointed for it, and the platform's
 * moderators. They decide on guests, block users from the chat and delete comments.
 */
export async function canHost(lives: LiveRepository, actor: Actor, live: LiveRecord): Promise<boolean> {
  return live.user_id === actor.userId || canModerate(actor) || (await lives.isModerator(live.id, actor.userId));
}
