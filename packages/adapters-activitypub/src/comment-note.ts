import { type Activity, Create, Delete, Note, PUBLIC_COLLECTION, Tombstone, Update } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { fromTimestamp } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import type { CommentRecord } from '@plaza/domain/content';
import type { FederationAudience } from '@plaza/domain/federation';
import { noteHtml } from './note-html.js';
import type { FederationUrls } from './urls.js';

const instant = (ts: string) => Temporal.Instant.fromEpochMilliseconds(fromTimestamp(ts).getTime());

export interface CommentNoteInput {
  comment: CommentRecord;
  /** The comment's (local) author. */
  author: UserRecord;
  /** The post's author (by default the comment's): a followers-only post's comment is addressed to its followers. */
  owner?: UserRecord;
  /** The audience of the post it is on (a comment never reaches further than its post). */
  audience: FederationAudience;
  /** The Note it answers; by default its parent comment's Note, else its post's. */
  inReplyTo?: string;
  /** More recipients, cc'd (the author of the Note it answers, when that one is remote). */
  ccs?: URL[];
}

/** The Note id a comment answers: its parent comment's, or its post's. */
export function inReplyToOf(urls: FederationUrls, comment: Pick<CommentRecord, 'post_id' | 'parent_id'>): string {
  return comment.parent_id ? urls.comment(comment.parent_id) : urls.note(comment.post_id);
}

/**
 * A comment as a reply Note (issue 29): id `FederationUrls.comment(id)`, `inReplyTo` the Note it
 * answers, addressed as its post is: public, to the Public collection, cc the commenter's followers
 * (and the post author's); a private account's post, to the post author's followers alone (never the
 * commenter's: they may not see the post). The same mapping answers a fetch of the comment's id and
 * is what outbound replies carry (docs/decisions/0240), so the two never differ.
 */
export function commentNote(urls: FederationUrls, input: CommentNoteInput): Note {
  const { comment, author, audience } = input;
  const owner = input.owner ?? author;
  const { tos, ccs } = commentAddressing(urls, author, owner, audience, input.ccs ?? []);
  const id = new URL(urls.comment(comment.id));
  return new Note({
    id,
    attribution: new URL(urls.actor(author.username)),
    replyTarget: new URL(input.inReplyTo ?? inReplyToOf(urls, comment)),
    content: noteHtml(comment.content),
    published: instant(comment.created_at),
    updated: comment.updated_at ? instant(comment.updated_at) : null,
    url: id,
    tos,
    ccs,
  });
}

function commentAddressing(
  urls: FederationUrls,
  author: UserRecord,
  owner: UserRecord,
  audience: FederationAudience,
  extra: URL[],
): { tos: URL[]; ccs: URL[] } {
  const ownerFollowers = new URL(urls.followers(owner.username));
  if (audience !== 'public') return { tos: [ownerFollowers], ccs: extra };
  const followers = owner.id === author.id ? [ownerFollowers] : [new URL(urls.followers(author.username)), ownerFollowers];
  return { tos: [PUBLIC_COLLECTION], ccs: [...followers, ...extra] };
}

/**
 * Create, Update or Delete (a Tombstone) of a comment's Note, by its author, addressed as the Note
 * (docs/decisions/0240). Ids follow the posts' (`#create`, `#update-<ms>`, `#delete`).
 */
export function commentActivity(urls: FederationUrls, kind: 'create' | 'update' | 'delete', input: CommentNoteInput, at: Date): Activity {
  const { author, audience } = input;
  const actor = new URL(urls.actor(author.username));
  const { tos, ccs } = commentAddressing(urls, author, input.owner ?? author, audience, input.ccs ?? []);
  const noteId = urls.comment(input.comment.id);
  if (kind === 'delete')
    return new Delete({ id: new URL(`${noteId}#delete`), actor, tos, ccs, object: new Tombstone({ id: new URL(noteId) }) });
  const object = commentNote(urls, input);
  if (kind === 'create')
    return new Create({ id: new URL(`${noteId}#create`), actor, published: instant(input.comment.created_at), tos, ccs, object });
  return new Update({
    id: new URL(`${noteId}#update-${at.getTime()}`),
    actor,
    published: Temporal.Instant.fromEpochMilliseconds(at.getTime()),
    tos,
    ccs,
    object,
  });
}
