import type { DocumentLoader } from '@fedify/fedify';
import type { UserRecord } from '@plaza/domain/accounts';
import type { CommentRecord, PostRecord } from '@plaza/domain/content';
import {
  type FederationAudience,
  federationAudienceOf,
  type OutboundReply,
  type RemoteActor,
  remoteMentionsOf,
} from '@plaza/domain/federation';
import { commentNote } from './comment-note.js';
import type { InstanceActor } from './instance-actor.js';
import type { Loaders } from './mapping.js';
import { type MentionResolver, withMentions } from './mentions.js';
import { htmlPage, redirectTo, wantsActivity, wantsHtml } from './negotiation.js';
import type { ActivityBuilder } from './outbox.js';
import { replyNote } from './reply-note.js';
import { verifySignedFetch } from './signed-fetch.js';
import type { FederationUrls } from './urls.js';

/** What a fetch of a Note reads (the content and accounts contexts, and the remote followers). */
export interface FetchableSources {
  post(id: number): Promise<PostRecord | null>;
  comment(id: number): Promise<CommentRecord | null>;
  user(id: number): Promise<UserRecord | null>;
  /** A live local account by username (the actor's page). */
  localUser(username: string): Promise<UserRecord | null>;
  /** Each remote follower's (shared) inbox: their servers are the ones a followers-only note is shown to. */
  followerInboxes(userId: number): Promise<string[]>;
  /** A local user's reply to a remote Note (docs/decisions/0246). */
  remoteReply(id: number): Promise<OutboundReply | null>;
  /** A cached remote actor (the replied-to author, named in the reply's Mention). */
  remoteActor(url: string): Promise<RemoteActor | null>;
}

export interface FetchableOptions {
  urls: FederationUrls;
  sources: FetchableSources;
  activities: ActivityBuilder;
  /** The cached document loader: verifying a signed fetch reads the signer's key through it. */
  loaders: Loaders;
  /** API_FEDERATION_SECURE_MODE: unsigned fetches of objects and collections are refused (401). */
  secureMode: boolean;
  /** MAIN_APP_HOST: where a browser is sent for a post, comment or profile; none: a minimal page. */
  mainAppHost: string | null;
  instanceActor: InstanceActor;
  suspended?: { isSuspended(urlOrHost: string): Promise<boolean> };
  /** Mentions already resolved (cached) are shown in a fetched Note as in the delivered one. */
  mentions?: Pick<MentionResolver, 'cached'> | null;
}

/** The post Note id's path (the API URL remote servers already hold: urls.ts). */
const POST_PATH = '/api/v1/posts.php';
const COMMENT_PATH = '/fediverse/comment.php';
/** A local user's reply to a remote Note (urls.ts `remoteReply`). */
const REPLY_PATH = '/fediverse/reply.php';
const ACTOR_PATH = '/fediverse/actor.php';
const TAG_PATH = '/fediverse/tag.php';
const INSTANCE_ACTOR_PATH = '/fediverse/instance-actor.php';
const COLLECTIONS = new Set(['/fediverse/outbox.php', '/fediverse/followers.php', '/fediverse/following.php']);

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers | undefined, name: string): string | undefined => {
  const v = headers?.[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

function json(status: number, body: unknown, type = 'application/json; charset=utf-8'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type, Vary: 'Accept' } });
}
const error = (status: number, code: string, message: string) => json(status, { success: false, error: message, message, code });
const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/** Who signed a fetch: the host of the verified key, or null (unsigned, or a signature that does not verify). */
type Signer = { host: string } | null;

/**
 * The objects federation serves at their ids (docs/decisions/0201): a post's Note (at its API URL,
 * for ActivityStreams requests without a token only), a comment's Note, a reply to a remote Note
 * (0246), the instance actor; the
 * browser's view of those and of the actor (a redirect to the main application, or a minimal page);
 * and, in secure mode, the refusal of unsigned fetches of objects and collections. The audience
 * rule is the outbox's: a public account's wall post (and its comments) to anyone, a private
 * account's to a signed fetch by a server where one of its followers is, anything else 404.
 */
export class FetchableObjects {
  constructor(private readonly o: FetchableOptions) {}

  /**
   * Whether this module takes a request the rest of the HTTP app would otherwise answer: a post's
   * Note id asked for as ActivityStreams or HTML by a client without a token. The app's own reads
   * (a bearer token, `Accept: application/json`) never match and reach posts.php unchanged.
   */
  claims(path: string, request?: { method: string; headers: Headers }): boolean {
    if (path !== POST_PATH || !request) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (header(request.headers, 'authorization')) return false;
    const accept = header(request.headers, 'accept');
    return wantsActivity(accept) || wantsHtml(accept);
  }

  /** The answer for a request under /fediverse/ or a claimed post id; null: not this module's (Fedify's routes, inboxes, documents). */
  async handle(request: Request): Promise<Response | null> {
    const url = new URL(request.url);
    const path = url.pathname;
    const known = path === POST_PATH || path === COMMENT_PATH || path === REPLY_PATH || path === TAG_PATH || path === INSTANCE_ACTOR_PATH;
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (known && !reading) return error(405, 'method_not_allowed', `${request.method} is not allowed here`);
    if (!reading) return null;
    const accept = request.headers.get('accept');

    if (path === INSTANCE_ACTOR_PATH) return this.activity(await this.o.instanceActor.document());
    if (path === TAG_PATH) return this.tagPage(url);
    if (path === ACTOR_PATH) return wantsHtml(accept) ? this.profilePage(url) : null;
    if (COLLECTIONS.has(path)) return this.o.secureMode ? this.refusal(await this.signer(request)) : null;
    if (path !== POST_PATH && path !== COMMENT_PATH && path !== REPLY_PATH) return null;

    const id = /^\d{1,15}$/.test(url.searchParams.get('id') ?? '') ? Number(url.searchParams.get('id')) : 0;
    if (path === REPLY_PATH) return this.reply(id, request);
    const kind = path === POST_PATH ? 'post' : 'comment';
    if (!wantsActivity(accept)) return this.objectPage(kind, id);
    const signer = await this.signer(request);
    if (this.o.secureMode || signer) {
      const refused = await this.refusal(signer);
      if (refused) return refused;
    }
    const found = id > 0 ? await this.load(kind, id) : null;
    if (!found || !(await this.mayRead(found.audience, found.owner, signer))) return error(404, 'not_found', 'No such object');
    return this.activity(found.note);
  }

  /**
   * A reply to a remote Note, to the audience of its Create (docs/decisions/0246): a public one to
   * anyone, a direct one only to a signed fetch by the replied-to author's server; 404 otherwise. A
   * browser gets a minimal page of a public one (the main application has no page for it).
   */
  private async reply(id: number, request: Request): Promise<Response> {
    const reply = id > 0 ? await this.o.sources.remoteReply(id) : null;
    const user = reply ? await this.o.sources.user(reply.user_id) : null;
    const found = reply && user && !user.deleted_at ? { reply, user } : null;
    if (!wantsActivity(request.headers.get('accept'))) {
      if (!found || found.reply.audience !== 'public') return htmlPage(404, 'Not found', ['There is nothing here.']);
      return htmlPage(200, `A reply by ${found.user.display_name || found.user.username}`, [found.reply.content, found.reply.created_at], {
        href: this.o.urls.actor(found.user.username),
        text: `@${found.user.username}@${this.o.urls.domain}`,
      });
    }
    const signer = await this.signer(request);
    if (this.o.secureMode || signer) {
      const refused = await this.refusal(signer);
      if (refused) return refused;
    }
    const readable = found && (found.reply.audience === 'public' || (signer !== null && hostOf(found.reply.actor_url) === signer.host));
    if (!found || !readable) return error(404, 'not_found', 'No such object');
    const author = await this.o.sources.remoteActor(found.reply.actor_url);
    return this.activity(replyNote(this.o.urls, found.user.username, found.reply, author));
  }

  /** In secure mode, or for any signed fetch: unsigned is 401, a suspended server 403; null to go on. */
  private async refusal(signer: Signer): Promise<Response | null> {
    if (!signer)
      return this.o.secureMode ? error(401, 'signature_required', 'This server requires signed fetches (authorized fetch)') : null;
    if (await this.o.suspended?.isSuspended(signer.host))
      return error(403, 'domain_blocked', 'This server is blocked by the administrators of this instance');
    return null;
  }

  private async signer(request: Request): Promise<Signer> {
    const key = await verifySignedFetch(request, this.o.loaders);
    const host = key?.id ? key.id.host.toLowerCase() : null;
    return host ? { host } : null;
  }

  /** The rule of the outbox: public to anyone; followers to a signed fetch from a follower's server. */
  private async mayRead(audience: FederationAudience, owner: UserRecord, signer: Signer): Promise<boolean> {
    if (audience === 'public') return true;
    if (!signer) return false;
    const inboxes = await this.o.sources.followerInboxes(owner.id);
    return inboxes.some((inbox) => hostOf(inbox) === signer.host);
  }

  /** The Note of a post or comment with the audience it is under and the account that decides it; null: 404. */
  private async load(
    kind: 'post' | 'comment',
    id: number,
  ): Promise<{
    note: { toJsonLd: ActivityBuilderNote['toJsonLd'] };
    audience: FederationAudience;
    owner: UserRecord;
    postId: number;
  } | null> {
    const { sources } = this.o;
    const comment = kind === 'comment' ? await sources.comment(id) : null;
    if (kind === 'comment' && !comment) return null;
    const post = await sources.post(comment ? comment.post_id : id);
    if (!post) return null;
    const owner = await sources.user(post.user_id);
    if (!owner || owner.deleted_at) return null;
    // Wall posts are the posts table (group and page posts have tables of their own, never these ids).
    const audience = federationAudienceOf({ kind: 'account', authorId: owner.id, isPrivate: owner.is_private });
    if (!audience) return null;
    if (!comment) {
      const note = await this.withCachedMentions(this.o.activities.note(post, owner, audience), audience, post.content);
      return { note, audience, owner, postId: post.id };
    }
    const author = comment.user_id === owner.id ? owner : await sources.user(comment.user_id);
    if (!author || author.deleted_at) return null;
    return { note: commentNote(this.o.urls, { comment, author, owner, audience }), audience, owner, postId: post.id };
  }

  /** A post's Note with the mentions the worker resolved when it was delivered (from the cache). */
  private async withCachedMentions(note: ActivityBuilderNote, audience: FederationAudience, content: string) {
    const handles = audience === 'public' && this.o.mentions ? remoteMentionsOf(content) : [];
    const found = handles.length > 0 ? await this.o.mentions!.cached(handles) : [];
    if (found.length === 0) return note;
    return {
      toJsonLd: async (options: { format: 'compact'; contextLoader: DocumentLoader }) =>
        (withMentions({ object: await note.toJsonLd(options) }, found) as { object: unknown }).object,
    };
  }

  private async activity(object: { toJsonLd(o: { format: 'compact'; contextLoader: DocumentLoader }): Promise<unknown> }) {
    const body = await object.toJsonLd({ format: 'compact', contextLoader: this.o.loaders.contextLoader });
    return json(200, body, 'application/activity+json');
  }

  /** A browser at a post's or comment's id: the main application's page, or a minimal page of a public one. */
  private async objectPage(kind: 'post' | 'comment', id: number): Promise<Response> {
    const comment = kind === 'comment' && id > 0 ? await this.o.sources.comment(id) : null;
    const post = id > 0 && (kind === 'post' || comment) ? await this.o.sources.post(comment ? comment.post_id : id) : null;
    const owner = post ? await this.o.sources.user(post.user_id) : null;
    if (!post || !owner || owner.deleted_at) return htmlPage(404, 'Not found', ['There is nothing here.']);
    const main = this.o.mainAppHost;
    // The main application checks who may see it (the reader's session): any existing one is sent there.
    if (main) return redirectTo(`${main}/post.php?id=${post.id}${comment ? `#comment-${comment.id}` : ''}`);
    if (owner.is_private) return htmlPage(404, 'Not found', ['There is nothing here.']);
    const author = comment ? await this.o.sources.user(comment.user_id) : owner;
    if (!author || author.deleted_at) return htmlPage(404, 'Not found', ['There is nothing here.']);
    const by = author.display_name || author.username;
    return htmlPage(
      200,
      `${kind === 'post' ? 'A post' : 'A comment'} by ${by}`,
      [(comment ?? post).content, (comment ?? post).created_at],
      {
        href: this.o.urls.actor(author.username),
        text: `@${author.username}@${this.o.urls.domain}`,
      },
    );
  }

  private async profilePage(url: URL): Promise<Response> {
    const user = await this.o.sources.localUser(url.searchParams.get('username') ?? '');
    if (!user) return htmlPage(404, 'Not found', ['There is no such account here.']);
    if (this.o.mainAppHost) return redirectTo(`${this.o.mainAppHost}/profile.php?id=${user.id}`);
    const name = user.display_name || user.username;
    return htmlPage(200, `${name} (@${user.username}@${this.o.urls.domain})`, user.bio && !user.is_private ? [user.bio] : []);
  }

  private tagPage(url: URL): Response {
    const tag = url.searchParams.get('tag') ?? '';
    if (!/^[\p{L}\p{N}_]{2,100}$/u.test(tag)) return htmlPage(404, 'Not found', ['There is no such tag.']);
    return htmlPage(200, `#${tag}`, [`Posts tagged #${tag} on ${this.o.urls.domain}.`]);
  }
}

type ActivityBuilderNote = ReturnType<ActivityBuilder['note']>;
