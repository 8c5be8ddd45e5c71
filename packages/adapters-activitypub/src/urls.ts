import { parseMediaReference, UPLOAD_TYPES, type UploadType } from '@plaza/domain/media';

const UPLOAD_TYPE_KEYS = Object.keys(UPLOAD_TYPES) as UploadType[];

/**
 * Plaza's federation URLs. The spec makes `/fediverse/*.php?username=` the ids of actors and their
 * collections; inboxes are paths of our own, listed by index.php.
 */
export class FederationUrls {
  readonly origin: string;
  readonly domain: string;

  constructor(publicUrl: string) {
    const base = new URL(publicUrl);
    this.origin = base.origin;
    this.domain = base.host;
  }

  private withUser(path: string, username: string, extra = ''): string {
    return `${this.origin}${path}?username=${encodeURIComponent(username)}${extra}`;
  }

  actor(username: string): string {
    return this.withUser('/fediverse/actor.php', username);
  }
  keyId(username: string): string {
    return `${this.actor(username)}#main-key`;
  }
  outbox(username: string): string {
    return this.withUser('/fediverse/outbox.php', username);
  }
  followers(username: string, page?: number): string {
    return this.withUser('/fediverse/followers.php', username, page === undefined ? '' : `&page=${page}`);
  }
  following(username: string): string {
    return this.withUser('/fediverse/following.php', username);
  }
  inbox(username: string): string {
    return `${this.origin}${INBOX_PREFIX}${encodeURIComponent(username)}`;
  }
  sharedInbox(): string {
    return `${this.origin}${SHARED_INBOX_PATH}`;
  }
  /** A post's Note id, the same as in export.php's archive (presenters/activity-archive.ts). */
  note(postId: number): string {
    return `${this.origin}/api/v1/posts.php?id=${postId}`;
  }
  /**
   * A comment's Note id. Comments federate as replies (issue 29); unlike a post's, the id is new, so it
   * lives under /fediverse/ where unauthenticated fetches are served.
   */
  comment(commentId: number): string {
    return `${this.origin}/fediverse/comment.php?id=${commentId}`;
  }
  /** The Note id of a local user's reply to a remote post (docs/decisions/0245). */
  remoteReply(replyId: number): string {
    return `${this.origin}/fediverse/reply.php?id=${replyId}`;
  }
  /** The local post or comment a Note id names (an `inReplyTo`, a `Like`'s object); null for anything else. */
  localObjectOf(url: string): { kind: 'post' | 'comment'; id: number } | null {
    try {
      const u = new URL(url);
      if (u.origin !== this.origin) return null;
      const kind = u.pathname === '/api/v1/posts.php' ? 'post' : u.pathname === '/fediverse/comment.php' ? 'comment' : null;
      const id = Number(u.searchParams.get('id'));
      return kind && Number.isSafeInteger(id) && id > 0 ? { kind, id } : null;
    } catch {
      return null;
    }
  }
  /** A hashtag's page (a `Hashtag` tag's href and the link in a Note's content). */
  tag(name: string): string {
    return `${this.origin}/fediverse/tag.php?tag=${encodeURIComponent(name)}`;
  }
  /** The instance's own actor, which signs Plaza's fetches in secure mode (instance-actor.ts). */
  instanceActor(): string {
    return `${this.origin}/fediverse/instance-actor.php`;
  }
  /** A new activity's id (Follow, Undo, Accept): unique, under our origin. */
  activity(uuid: string): string {
    return `${this.origin}/fediverse/activities/${uuid}`;
  }
  /**
   * An uploaded media name or path as an absolute URL (avatars, banners, post media). A bare name is
   * where the display side finds it (contract §36.6): in its prefix's folder (`avatar_…` under
   * `uploads/`, `media_…` under `uploads/posts/`), which is where upload.php stored it.
   */
  media(value: string | null, kind: 'avatars' | 'banners' | 'posts'): string | null {
    if (!value || value === 'default.svg') return null;
    if (/^https?:\/\//i.test(value)) return value;
    const relative = value.replace(/^\/+/, '');
    const path = relative.includes('/')
      ? relative
      : (parseMediaReference(relative, UPLOAD_TYPE_KEYS)?.path ?? (kind === 'posts' ? `uploads/posts/${relative}` : `uploads/${relative}`));
    return `${this.origin}/${path}`;
  }

  /** The username a local actor, outbox or followers URL names; null for anything else. */
  usernameOf(url: string): string | null {
    try {
      const u = new URL(url);
      if (u.origin !== this.origin) return null;
      if (!['/fediverse/actor.php', '/fediverse/outbox.php', '/fediverse/followers.php'].includes(u.pathname)) return null;
      return u.searchParams.get('username');
    } catch {
      return null;
    }
  }
}

export const INBOX_PREFIX = '/fediverse/inbox/';
export const SHARED_INBOX_PATH = '/fediverse/inbox';
/** Paths this package answers (the Koa mount routes them here, before any body parsing). */
export const FEDERATION_PATHS = ['/.well-known/webfinger', '/.well-known/nodeinfo', '/fediverse/'];

/** What index.php lists of federation's public URLs. */
export const FEDERATION_PUBLIC_PATHS: Record<string, string> = {
  webfinger: '/.well-known/webfinger?resource=acct:{username}@{domain}',
  nodeinfo: '/.well-known/nodeinfo',
  actor: '/fediverse/actor.php?username={username}',
  outbox: '/fediverse/outbox.php?username={username}',
  followers: '/fediverse/followers.php?username={username}',
  following: '/fediverse/following.php?username={username}',
  inbox: `${INBOX_PREFIX}{username}`,
  shared_inbox: SHARED_INBOX_PATH,
};
