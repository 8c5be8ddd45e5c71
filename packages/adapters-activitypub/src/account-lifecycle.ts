import { randomUUID } from 'node:crypto';
import { Delete, type Person, Update } from '@fedify/fedify';
import { type Clock, toTimestamp } from '@plaza/domain';
import type { EditableProfileField, ProfileEventListener, UserRecord, UserRepository } from '@plaza/domain/accounts';
import {
  type AccountFarewell,
  federationAudienceOf,
  type FederationQueue,
  type RemoteActorRepository,
  type RemoteFollowRepository,
} from '@plaza/domain/federation';
import type { ActorKeys } from './keys.js';
import { type ActivityBuilder, DELIVER_CHANNEL, type Delivery, FANOUT_CHANNEL, signedDelivery } from './outbox.js';
import type { FederationUrls } from './urls.js';

/** The fields the actor document shows: an edit of any other one changes nothing remote servers see. */
const PERSON_FIELDS: readonly EditableProfileField[] = ['display_name', 'bio', 'avatar', 'banner'];
/** The accounts a deleted user followed are read in pages of this size (their servers know the account too). */
const FOLLOWING_PAGE = 200;

/**
 * The account's own lifecycle in the fediverse (docs/decisions/0050): a profile edit sends
 * `Update(Person)` to the remote followers (one delivery per shared inbox), an account deletion sends
 * `Delete(Person)` to every inbox that knows the account (its followers' and those of the accounts it
 * follows) before the local erasure completes: queued in the deletion's unit of work and signed then,
 * since the key pair is erased with the account.
 */
export class FederationAccountLifecycle implements ProfileEventListener, AccountFarewell {
  constructor(
    private readonly users: UserRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly actors: RemoteActorRepository,
    private readonly people: { person(user: UserRecord): Promise<Person> },
    private readonly activities: ActivityBuilder,
    private readonly queue: FederationQueue,
    private readonly keys: ActorKeys,
    private readonly urls: FederationUrls,
    private readonly clock: Clock,
  ) {}

  private addressing(user: UserRecord) {
    const audience = federationAudienceOf({ kind: 'account', authorId: user.id, isPrivate: user.is_private }) ?? 'followers';
    return this.activities.addressing(user.username, audience);
  }

  async profileEdited(user: UserRecord, fields: readonly EditableProfileField[]): Promise<void> {
    if (fields.some((f) => PERSON_FIELDS.includes(f))) await this.sendPerson(user);
  }

  /** The actor's `manuallyApprovesFollowers` follows the account's privacy (docs/decisions/0210). */
  visibilityChanged(user: UserRecord): Promise<void> {
    return this.sendPerson(user);
  }

  /** `Update(Person)` to the remote followers, addressed as the account's posts now are. */
  private async sendPerson(user: UserRecord): Promise<void> {
    if (user.deleted_at || !(await this.follows.hasFollowers(user.id))) return;
    const person = await this.people.person(user);
    const update = new Update({
      id: new URL(this.urls.activity(randomUUID())),
      actor: person.id,
      object: person,
      ...this.addressing(user),
    });
    const payload = { user_id: user.id, username: user.username, activity: await this.activities.json(update) };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }

  async accountDeleted(userId: number): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || user.deleted_at) return;
    const inboxes = new Set(await this.follows.followerInboxes(userId));
    for (let page = 1; ; page++) {
      const list = await this.follows.following(userId, { page, perPage: FOLLOWING_PAGE });
      const actors = await this.actors.findMany(list.items.map((f) => f.actor_url));
      for (const a of actors.values()) inboxes.add(a.shared_inbox_url ?? a.inbox_url);
      if (list.items.length < FOLLOWING_PAGE) break;
    }
    if (inboxes.size === 0) return;
    const actor = new URL(this.urls.actor(user.username));
    const activity = await this.activities.json(
      new Delete({ id: new URL(`${actor.href}#delete`), actor, object: actor, ...this.addressing(user) }),
    );
    const body = JSON.stringify(activity);
    const { privateKey } = await this.keys.of(userId);
    const due = toTimestamp(this.clock.now());
    const messages = [];
    for (const inbox of [...inboxes].sort()) {
      const signed = await signedDelivery(inbox, body, privateKey, this.urls.keyId(user.username));
      const payload: Delivery = {
        user_id: user.id,
        username: user.username,
        inbox,
        activity,
        presigned: { headers: Object.fromEntries(signed.headers), body },
      };
      messages.push({ channel: DELIVER_CHANNEL, payload, due_at: due });
    }
    await this.queue.enqueue(messages);
    // The key pair is erased with the account: no later delivery may sign with a new one.
    this.keys.forget(userId);
  }
}
