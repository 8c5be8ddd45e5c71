import { Note, PUBLIC_COLLECTION } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { fromTimestamp } from '@plaza/domain';
import type { UserRecord } from '@plaza/domain/accounts';
import type { CommentRecord } from '@plaza/domain/content';
import type { FederationAudience } from '@plaza/domain/federation';
import { noteHtml } from './outbox.js';
import type { FederationUrls } from './urls.js';

const instant = (ts: string) => Temporal.Instant.fromEpochMilliseconds(fromTimestamp(ts).getTime());

export interface CommentNoteInput {
  comment: CommentRecord;
  /** The comment's (local) author. */
  author: UserRecord;
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
 * answers, addressed as its post is (public: to the Public collection, cc the author's followers;
 * followers: to the followers alone). The same mapping answers a fetch of the comment's id and is
 * what outbound replies carry, so the two never differ.
 */
export function commentNote(urls: FederationUrls, input: CommentNoteInput): Note {
  const { comment, author, audience } = input;
  const followers = new URL(urls.followers(author.username));
  const extra = input.ccs ?? [];
  const tos = audience === 'public' ? [PUBLIC_COLLECTION] : [followers];
  const ccs = audience === 'public' ? [followers, ...extra] : extra;
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
