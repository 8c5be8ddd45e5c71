import { exportedMedia, type UserRecord } from '@plaza/domain/accounts';

/**
 * The ActivityStreams files of a Mastodon-style archive (actor.json, outbox.json): what another
 * fediverse server's importer reads to move an account. Media are referenced by their path inside
 * the archive (`/media_attachments/files/...`), as Mastodon's own archives do.
 */

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;

export interface ArchiveIdentity {
  /** Public base URL of the instance, no trailing slash. */
  publicUrl: string;
}

export interface ArchivedPost {
  id: number;
  content: string;
  media: string[];
  media_type: string | null;
  tags: string[];
  created_at: string;
  updated_at: string | null;
}

export function actorId(identity: ArchiveIdentity, username: string): string {
  return `${identity.publicUrl}/fediverse/actor.php?username=${encodeURIComponent(username)}`;
}

/** The actor's collections and inbox, at the URLs federation serves them (adapters-activitypub urls.ts). */
function followersId(identity: ArchiveIdentity, username: string): string {
  return `${identity.publicUrl}/fediverse/followers.php?username=${encodeURIComponent(username)}`;
}
function followingId(identity: ArchiveIdentity, username: string): string {
  return `${identity.publicUrl}/fediverse/following.php?username=${encodeURIComponent(username)}`;
}

/** Where a stored media value sits in the archive. */
export function archivedMediaPath(uploadsRelative: string): string {
  return `media_attachments/files/${uploadsRelative.replace(/^uploads\//, '')}`;
}

function iso(ts: string): string {
  return `${ts.replace(' ', 'T')}Z`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Plain text as the HTML a Note carries: paragraphs and line breaks. */
function noteHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function mediaTypeOf(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    mp4: 'video/mp4',
    webm: 'video/webm',
    mov: 'video/quicktime',
    mp3: 'audio/mpeg',
    ogg: 'audio/ogg',
  };
  return types[ext] ?? 'application/octet-stream';
}

function postMediaPath(name: string): string {
  return exportedMedia({ value: name, kind: 'posts', source: 'post' })?.path ?? name;
}

export function actorJson(identity: ArchiveIdentity, user: UserRecord, avatar: string | null, banner: string | null): object {
  const id = actorId(identity, user.username);
  return {
    '@context': [AS, 'https://w3id.org/security/v1'],
    id,
    type: 'Person',
    preferredUsername: user.username,
    name: user.display_name ?? user.username,
    summary: user.bio ? noteHtml(user.bio) : '',
    url: `${identity.publicUrl}/api/v1/users.php?id=${user.id}`,
    published: iso(user.created_at),
    manuallyApprovesFollowers: user.is_private,
    inbox: `${identity.publicUrl}/fediverse/inbox/${encodeURIComponent(user.username)}`,
    outbox: 'outbox.json',
    followers: followersId(identity, user.username),
    following: followingId(identity, user.username),
    ...(avatar ? { icon: { type: 'Image', mediaType: mediaTypeOf(avatar), url: archivedMediaPath(avatar) } } : {}),
    ...(banner ? { image: { type: 'Image', mediaType: mediaTypeOf(banner), url: archivedMediaPath(banner) } } : {}),
  };
}

/** One Create activity of the outbox. A private account's posts are addressed to its followers only. */
export function createActivity(identity: ArchiveIdentity, user: UserRecord, post: ArchivedPost): object {
  const actor = actorId(identity, user.username);
  const followers = followersId(identity, user.username);
  const to = user.is_private ? [followers] : [PUBLIC];
  const cc = user.is_private ? [] : [followers];
  const noteId = `${identity.publicUrl}/api/v1/posts.php?id=${post.id}`;
  return {
    id: `${noteId}#create`,
    type: 'Create',
    actor,
    published: iso(post.created_at),
    to,
    cc,
    object: {
      id: noteId,
      type: 'Note',
      attributedTo: actor,
      content: noteHtml(post.content),
      published: iso(post.created_at),
      ...(post.updated_at ? { updated: iso(post.updated_at) } : {}),
      url: noteId,
      to,
      cc,
      sensitive: false,
      attachment: post.media.map((m) => ({
        type: 'Document',
        mediaType: mediaTypeOf(m),
        url: `/${archivedMediaPath(postMediaPath(m))}`,
        name: null,
      })),
      tag: post.tags.map((t) => ({
        type: 'Hashtag',
        name: `#${t}`,
        href: `${identity.publicUrl}/api/v1/posts.php?tag=${encodeURIComponent(t)}`,
      })),
    },
  };
}

/** outbox.json as text chunks: an OrderedCollection whose items are written as the posts are read. */
export async function* outboxJson(identity: ArchiveIdentity, user: UserRecord, posts: AsyncIterable<ArchivedPost>): AsyncGenerator<string> {
  yield `{"@context":${JSON.stringify(AS)},"id":"outbox.json","type":"OrderedCollection","orderedItems":[`;
  let count = 0;
  for await (const post of posts) {
    yield (count ? ',' : '') + JSON.stringify(createActivity(identity, user, post));
    count += 1;
  }
  // Counted while writing: the collection is never held in memory to count it first.
  yield `],"totalItems":${count}}\n`;
}
