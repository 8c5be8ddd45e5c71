import type { UserRepository } from '../accounts/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import type { MessageGroupService } from './message-group-service.js';
import type { TypingRepository } from './ports.js';
import { userMap } from '../accounts/user-map.js';

/** A typing signal lasts this long unless renewed. */
export const TYPING_TTL_MS = 10_000;

export interface Typist {
  user_id: number;
  username: string;
}

export class TypingService {
  constructor(
    private readonly typing: TypingRepository,
    private readonly users: UserRepository,
    private readonly groups: MessageGroupService,
    private readonly clock: Clock,
  ) {}

  async setPrivate(actor: Actor, recipientId: number, isTyping: boolean): Promise<void> {
    await this.assertUser(recipientId);
    await this.write(actor, 'user', recipientId, isTyping);
  }

  /** Whether `peerId` is typing to the actor, as a list of at most one user. */
  async privateTypists(actor: Actor, peerId: number): Promise<Typist[]> {
    await this.assertUser(peerId);
    const ids = (await this.typing.active('user', actor.userId, this.now())).filter((id) => id === peerId);
    return this.named(ids);
  }

  async setGroup(actor: Actor, groupId: number, isTyping: boolean): Promise<void> {
    await this.groups.assertMember(actor, groupId);
    await this.write(actor, 'group', groupId, isTyping);
  }

  async groupTypists(actor: Actor, groupId: number): Promise<Typist[]> {
    await this.groups.assertMember(actor, groupId);
    const ids = (await this.typing.active('group', groupId, this.now())).filter((id) => id !== actor.userId);
    return this.named(ids);
  }

  async purge(): Promise<void> {
    await this.typing.purge(this.now());
  }

  /** A conversation with no one is a 404, as messages.php answers for the same id. */
  private async assertUser(userId: number) {
    if (!(await this.users.findById(userId))) throw new NotFound('User not found', 'user_not_found');
  }

  private now() {
    return toTimestamp(this.clock.now());
  }

  private async write(actor: Actor, target: 'user' | 'group', targetId: number, isTyping: boolean) {
    if (isTyping) await this.typing.set(actor.userId, target, targetId, toTimestamp(new Date(this.clock.now().getTime() + TYPING_TTL_MS)));
    else await this.typing.clear(actor.userId, target, targetId);
  }

  private async named(ids: number[]): Promise<Typist[]> {
    const users = await userMap(this.users, ids);
    return ids.flatMap((id) => (users.has(id) ? [{ user_id: id, username: users.get(id)!.username }] : []));
  }
}
