import { isActor, lookupObject, OrderedCollection, Collection, traverseCollection } from '@fedify/fedify';
import type { Clock } from '@plaza/domain';
import type { RemoteActor, RemoteDirectory, RemotePostInput } from '@plaza/domain/federation';
import { isJsonType } from './document-loader.js';
import { type Loaders, noteOf, toRemoteActor, toRemotePost } from './mapping.js';
import type { GuardedClient } from './ssrf.js';
import type { FederationUrls } from './urls.js';

/** `@name@host` or `name@host` (host with an optional port). */
const HANDLE = /^@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;

/**
 * The network side of fediverse.php: WebFinger, actor and outbox documents, all through the guarded
 * client (the document loader is the guarded one too).
 */
export class FediverseDirectory implements RemoteDirectory {
  constructor(
    private readonly client: GuardedClient,
    private readonly loaders: Loaders,
    private readonly urls: FederationUrls,
    private readonly clock: Clock,
    /** With private addresses allowed (tests, closed networks), WebFinger falls back to http://. */
    private readonly allowPlainHttp: boolean,
  ) {}

  async resolve(q: string): Promise<RemoteActor | null> {
    let actorUrl: string | null;
    if (/^https?:\/\//i.test(q)) actorUrl = q;
    else {
      const m = HANDLE.exec(q);
      if (!m) return null;
      actorUrl = await this.webfinger(m[1], m[2]);
    }
    if (!actorUrl) return null;
    if (this.urls.usernameOf(actorUrl) !== null) return null; // A local account is not a remote one.
    let object;
    try {
      object = await lookupObject(actorUrl, this.loaders);
    } catch {
      return null;
    }
    if (!isActor(object)) return null;
    return toRemoteActor(object, this.loaders, this.clock.now());
  }

  /** The actor URL a WebFinger answer names (`self` link of an ActivityPub type). */
  private async webfinger(user: string, host: string): Promise<string | null> {
    const schemes = this.allowPlainHttp ? ['https', 'http'] : ['https'];
    for (const scheme of schemes) {
      const url = `${scheme}://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${user}@${host}`)}`;
      let response: Response;
      try {
        response = await this.client.fetch(url, { headers: { Accept: 'application/jrd+json, application/json' } });
      } catch {
        continue;
      }
      if (!response.ok || !isJsonType(response.headers.get('content-type'))) continue;
      const jrd = (await response.json().catch(() => null)) as { links?: { rel?: string; type?: string; href?: string }[] } | null;
      const self = jrd?.links?.find((l) => l.rel === 'self' && /^application\/(activity\+json|ld\+json)/.test(l.type ?? '') && typeof l.href === 'string');
      if (self?.href && /^https?:\/\//i.test(self.href)) return self.href;
    }
    return null;
  }

  async recentPosts(actor: RemoteActor, limit: number): Promise<RemotePostInput[]> {
    if (!actor.outbox_url) return [];
    const outbox = await lookupObject(actor.outbox_url, this.loaders);
    if (!(outbox instanceof OrderedCollection || outbox instanceof Collection)) return [];
    const out: RemotePostInput[] = [];
    const now = this.clock.now();
    let seen = 0;
    for await (const item of traverseCollection(outbox, this.loaders)) {
      // Bounded reading: an outbox of shares and replies still ends the walk.
      if (++seen > limit * 3 || out.length >= limit) break;
      const found = await noteOf(item, this.loaders).catch(() => null);
      if (!found) continue;
      const post = await toRemotePost(found.note, found.actorUrl, this.loaders, now);
      if (post && post.actor_url === actor.actor_url) out.push(post);
    }
    return out.sort((a, b) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : 0));
  }
}
