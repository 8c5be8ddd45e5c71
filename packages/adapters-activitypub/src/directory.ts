import { isActor, Note, Object as ApObject, OrderedCollection, Collection, PUBLIC_COLLECTION, traverseCollection } from '@fedify/fedify';
import { type Clock, Invalid } from '@plaza/domain';
import type { RemoteActor, RemoteDirectory, RemoteNote, RemoteNoteResolver, RemotePostInput } from '@plaza/domain/federation';
import { isJsonType } from './document-loader.js';
import { type Loaders, noteOf, toRemoteActor, toRemotePost } from './mapping.js';
import { type GuardedClient, GuardRefusal } from './ssrf.js';
import type { FederationUrls } from './urls.js';

/** `@name@host` or `name@host` (host with an optional port). */
const HANDLE = /^@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;

/** Whether the guard refused a destination as such (not a timeout, size or network failure). */
const isAddressRefusal = (error: unknown): error is GuardRefusal =>
  error instanceof GuardRefusal && (error.reason === 'private_address' || error.reason === 'scheme');

/**
 * An ActivityStreams object by its URL, through the guarded document loader alone. (Fedify's
 * `lookupObject` falls back to a WebFinger request of its own on the global fetch, outside the guard:
 * that is how `[::ffff:7f00:1]` once reached a loopback listener; docs/decisions/0111.)
 */
async function loadObject(url: string, loaders: Loaders): Promise<ApObject | null> {
  return (await loadObjectAt(url, loaders)).object;
}

/** The object and the URL it was finally read from (after the loader's redirects). */
async function loadObjectAt(url: string, loaders: Loaders): Promise<{ object: ApObject | null; from: string }> {
  const { document, documentUrl } = await loaders.documentLoader(url);
  try {
    return { object: await ApObject.fromJsonLd(document, loaders), from: documentUrl };
  } catch (error) {
    if (error instanceof TypeError) return { object: null, from: documentUrl }; // Not an ActivityStreams object.
    throw error;
  }
}

const refusedAddress = () =>
  new Invalid('This address is not on the public internet: federation only reaches public servers', 'remote_address_refused');

/**
 * The network side of fediverse.php: WebFinger, actor and outbox documents, all through the guarded
 * client (the document loader is the guarded one too). A handle or URL that leads only to addresses
 * the guard refuses is an Invalid `remote_address_refused` (400), not a silent "not found".
 */
export class FediverseDirectory implements RemoteDirectory, RemoteNoteResolver {
  constructor(
    private readonly client: GuardedClient,
    private readonly loaders: Loaders,
    private readonly urls: FederationUrls,
    private readonly clock: Clock,
    /** With private addresses allowed (tests, closed networks), WebFinger falls back to http://. */
    private readonly allowPlainHttp: boolean,
  ) {}

  async resolve(q: string): Promise<RemoteActor | null> {
    // Whether the guard refused a destination on the way: then nothing was looked at, and the caller learns why.
    let refused = false;
    const noteRefusal = (error: unknown) => {
      refused ||= isAddressRefusal(error);
    };
    const notFound = () => {
      if (refused) throw refusedAddress();
      return null;
    };
    let actorUrl: string | null;
    if (/^https?:\/\//i.test(q)) actorUrl = q;
    else {
      const m = HANDLE.exec(q);
      if (!m) return null;
      actorUrl = await this.webfinger(m[1], m[2], noteRefusal);
    }
    if (!actorUrl) return notFound();
    if (this.urls.usernameOf(actorUrl) !== null) return null; // A local account is not a remote one.
    const object = await loadObject(actorUrl, this.loaders).catch((error: unknown) => {
      noteRefusal(error);
      return null;
    });
    if (!isActor(object)) return notFound();
    return toRemoteActor(object, this.loaders, this.clock.now());
  }

  /**
   * A remote Note by its URL (reactions and replies to remote posts, docs/decisions/0245). Its id and
   * its author must be on the server that answered: a document does not speak for another server.
   */
  async note(url: string): Promise<RemoteNote | null> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return null;
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
    if (target.origin === this.urls.origin)
      throw new Invalid('This is a post of this server: use reactions.php or comments.php', 'remote_object_is_local');
    let loaded: { object: ApObject | null; from: string };
    try {
      loaded = await loadObjectAt(target.href, this.loaders);
    } catch (error) {
      if (isAddressRefusal(error)) throw refusedAddress();
      return null; // Unreachable, not found, not JSON: no Note answers there.
    }
    const note = loaded.object;
    if (!(note instanceof Note) || !note.id) return null;
    const author = note.attributionId;
    const origin = new URL(loaded.from).origin;
    if (!author || note.id.origin !== origin || author.origin !== origin) return null;
    if (note.id.href.length > 512 || author.href.length > 512) return null;
    const audience = [...note.toIds, ...note.ccIds];
    return { object_id: note.id.href, actor_url: author.href, public: audience.some((u) => u.href === PUBLIC_COLLECTION.href) };
  }

  /** The actor URL a WebFinger answer names (`self` link of an ActivityPub type). */
  private async webfinger(user: string, host: string, noteRefusal: (error: unknown) => void): Promise<string | null> {
    const schemes = this.allowPlainHttp ? ['https', 'http'] : ['https'];
    for (const scheme of schemes) {
      const url = `${scheme}://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${user}@${host}`)}`;
      let response: Response;
      try {
        response = await this.client.fetch(url, { headers: { Accept: 'application/jrd+json, application/json' } });
      } catch (error) {
        noteRefusal(error);
        continue;
      }
      if (!response.ok || !isJsonType(response.headers.get('content-type'))) continue;
      const jrd = (await response.json().catch(() => null)) as { links?: { rel?: string; type?: string; href?: string }[] } | null;
      const self = jrd?.links?.find(
        (l) => l.rel === 'self' && /^application\/(activity\+json|ld\+json)/.test(l.type ?? '') && typeof l.href === 'string',
      );
      if (self?.href && /^https?:\/\//i.test(self.href)) return self.href;
    }
    return null;
  }

  async recentPosts(actor: RemoteActor, limit: number): Promise<RemotePostInput[]> {
    if (!actor.outbox_url) return [];
    const outbox = await loadObject(actor.outbox_url, this.loaders);
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
