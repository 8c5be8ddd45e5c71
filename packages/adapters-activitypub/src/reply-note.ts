import { Mention, Note, PUBLIC_COLLECTION } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { fromTimestamp, type Timestamp } from '@plaza/domain';
import { handleOf, type OutboundReply, type RemoteActor } from '@plaza/domain/federation';
import { noteHtml } from './outbox.js';
import type { FederationUrls } from './urls.js';

const instant = (ts: Timestamp) => Temporal.Instant.fromEpochMilliseconds(fromTimestamp(ts).getTime());

/** Who a reply to a remote Note is addressed to: a public one as the account's public posts, with the author in cc; any other to the author alone. */
export function replyAudience(urls: FederationUrls, username: string, reply: Pick<OutboundReply, 'audience' | 'actor_url'>) {
  const author = new URL(reply.actor_url);
  return reply.audience === 'public'
    ? { tos: [PUBLIC_COLLECTION], ccs: [new URL(urls.followers(username)), author] }
    : { tos: [author], ccs: [] };
}

/**
 * A local user's reply to a remote Note (docs/decisions/0245, 0246): id `FederationUrls.remoteReply`,
 * `inReplyTo` the remote Note, a `Mention` of its author. The same mapping is what the Create and the
 * Update carry and what a fetch of the id answers, so they never differ. The author's handle names
 * the Mention when the author is cached; the href alone otherwise.
 */
export function replyNote(urls: FederationUrls, username: string, reply: OutboundReply, author: RemoteActor | null): Note {
  const id = new URL(urls.remoteReply(reply.id));
  const href = new URL(reply.actor_url);
  return new Note({
    id,
    attribution: new URL(urls.actor(username)),
    content: noteHtml(reply.content),
    replyTarget: new URL(reply.object_id),
    published: instant(reply.created_at),
    updated: reply.updated_at ? instant(reply.updated_at) : null,
    url: id,
    ...replyAudience(urls, username, reply),
    tags: [new Mention(author ? { href, name: handleOf(author) } : { href })],
  });
}
