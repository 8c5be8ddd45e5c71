import { randomUUID } from 'node:crypto';
import { Announce } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type Clock, fromTimestamp, toTimestamp } from '@plaza/domain';
import type { UserRepository } from '@plaza/domain/accounts';
import type { PostEventListener, ShareEvent } from '@plaza/domain/content';
import { federationAudienceOf, type FederationQueue, type RemoteFollowRepository } from '@plaza/domain/federation';
import { type ActivityBuilder, FANOUT_CHANNEL } from './outbox.js';
import type { FederationUrls } from './urls.js';

/**
 * A local share of a local wall post, as `Announce` of the post's Note to the sharer's remote
 * followers (docs/decisions/0050). Only a post that federates publicly is announced: a private
 * account's post (followers-only Note) never is, whoever shares it. The Announce is addressed as the
 * sharer's own posts are: a private sharer's to its followers only. Runs in the share's unit of work.
 */
export class FederationShareListener implements PostEventListener {
  constructor(
    private readonly users: UserRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly activities: ActivityBuilder,
    private readonly queue: FederationQueue,
    private readonly urls: FederationUrls,
    private readonly clock: Clock,
  ) {}

  async shared(share: ShareEvent): Promise<void> {
    if (!(await this.follows.hasFollowers(share.userId))) return;
    const [author, sharer] = await Promise.all([this.users.findById(share.post.user_id), this.users.findById(share.userId)]);
    if (!author || author.deleted_at || !sharer || sharer.deleted_at) return;
    const postScope = federationAudienceOf({ kind: 'account', authorId: author.id, isPrivate: author.is_private });
    if (postScope !== 'public') return;
    const scope = federationAudienceOf({ kind: 'account', authorId: sharer.id, isPrivate: sharer.is_private });
    if (!scope) return;
    const { tos, ccs } = this.activities.addressing(sharer.username, scope);
    const announce = new Announce({
      id: new URL(this.urls.activity(randomUUID())),
      actor: new URL(this.urls.actor(sharer.username)),
      object: new URL(this.urls.note(share.post.id)),
      published: Temporal.Instant.fromEpochMilliseconds(fromTimestamp(share.at).getTime()),
      tos,
      // The post's author is told too (its own server: a no-op here, as Mastodon cc's the author).
      ccs: [...ccs, new URL(this.urls.actor(author.username))],
    });
    const payload = { user_id: sharer.id, username: sharer.username, activity: await this.activities.json(announce) };
    await this.queue.enqueue([{ channel: FANOUT_CHANNEL, payload, due_at: toTimestamp(this.clock.now()) }]);
  }
}
