import type { KvKey, KvStore } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { MAX_REMOTE_MENTIONS, type RemoteActor } from '@plaza/domain/federation';

/** A mentioned remote account: what its link, its `Mention` tag and its delivery need. */
export interface ResolvedMention {
  /** As written and looked up: `@name@host`, lowercased. */
  handle: string;
  actor_url: string;
  /** Its shared inbox, else its inbox. */
  inbox: string;
  /** Its profile page (the link in the content). */
  profile_url: string;
}

export interface MentionResolverOptions {
  /** WebFinger and the actor document, through the guarded client (FediverseDirectory.resolve). */
  resolve(handle: string): Promise<RemoteActor | null>;
  /** Suspended domains are neither looked up nor mentioned (docs/decisions/0106). */
  suspended: { isSuspended(urlOrHost: string): Promise<boolean> };
  kv: KvStore;
  log?: { warn(details: Record<string, unknown>, message: string): void };
}

/**
 * A resolved handle is kept a day, one that did not resolve (no such account, or its server failed or
 * is refused) an hour: a typo or a server that is down is not looked up again with every post.
 */
const FOUND_TTL = Temporal.Duration.from({ hours: 24 });
const MISSING_TTL = Temporal.Duration.from({ hours: 1 });
const cacheKey = (handle: string): KvKey => ['plaza', 'mention', handle];

type Cached = { found: ResolvedMention } | { found: null };

/**
 * Resolves the remote handles a post mentions, cached in federation's key-value store. It never
 * throws: a handle that does not resolve (no such account, server down, refused address, suspended
 * domain) is left out, and stays plain text in the post.
 */
export class MentionResolver {
  constructor(private readonly o: MentionResolverOptions) {}

  /** Looks each handle up (at most `MAX_REMOTE_MENTIONS`, in parallel): the ones that resolved. */
  async resolve(handles: readonly string[]): Promise<ResolvedMention[]> {
    const found = await Promise.all(handles.slice(0, MAX_REMOTE_MENTIONS).map((h) => this.one(h)));
    return found.filter((m): m is ResolvedMention => m !== null);
  }

  /** What the cache already knows, without a request (a fetch of the Note answers from it). */
  async cached(handles: readonly string[]): Promise<ResolvedMention[]> {
    const found = await Promise.all(
      handles.slice(0, MAX_REMOTE_MENTIONS).map(async (h) => {
        const hit = await this.o.kv.get<Cached>(cacheKey(h)).catch(() => undefined);
        return hit?.found && !(await this.o.suspended.isSuspended(hit.found.actor_url)) ? hit.found : null;
      }),
    );
    return found.filter((m): m is ResolvedMention => m !== null);
  }

  private async one(handle: string): Promise<ResolvedMention | null> {
    const host = handle.split('@')[2] ?? '';
    try {
      if (!host || (await this.o.suspended.isSuspended(host))) return null;
      const hit = await this.o.kv.get<Cached>(cacheKey(handle));
      if (hit) return hit.found && !(await this.o.suspended.isSuspended(hit.found.actor_url)) ? hit.found : null;
      const actor = await this.o.resolve(handle).catch(() => null);
      const found: ResolvedMention | null =
        actor && !(await this.o.suspended.isSuspended(actor.actor_url))
          ? {
              handle,
              actor_url: actor.actor_url,
              inbox: actor.shared_inbox_url ?? actor.inbox_url,
              profile_url: actor.profile_url || actor.actor_url,
            }
          : null;
      await this.o.kv.set(cacheKey(handle), { found } satisfies Cached, { ttl: found ? FOUND_TTL : MISSING_TTL });
      return found;
    } catch (error) {
      this.o.log?.warn({ handle, err: error }, 'mention not resolved');
      return null;
    }
  }
}

const escapeAttribute = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Links the hashtags of a Note's HTML (made by `noteHtml`, so text is escaped and `&#39;` is an
 * entity, never a tag) as Mastodon does: `<a href=… class="mention hashtag" rel="tag">#<span>tag</span></a>`.
 */
export function linkHashtags(html: string, tags: readonly string[], href: (tag: string) => string): string {
  if (tags.length === 0) return html;
  const known = new Set(tags.map((t) => t.toLowerCase()));
  return html.replace(/(?<![&\w#])#([\p{L}\p{N}_]{2,})/gu, (whole, tag: string) =>
    known.has(tag.toLowerCase())
      ? `<a href="${escapeAttribute(href(tag.toLowerCase()))}" class="mention hashtag" rel="tag">#<span>${tag}</span></a>`
      : whole,
  );
}

/** Links each resolved mention in a Note's HTML, as Mastodon does (an h-card around a `u-url mention` link). */
export function linkMentions(html: string, mentions: readonly ResolvedMention[]): string {
  let out = html;
  for (const m of mentions) {
    const name = m.handle.split('@')[1];
    const pattern = new RegExp(`(?<![\\w@/.])${escapeRegExp(m.handle)}(?![\\w-]|\\.\\w)`, 'gi');
    out = out.replace(
      pattern,
      `<span class="h-card"><a href="${escapeAttribute(m.profile_url)}" class="u-url mention">@<span>${name}</span></a></span>`,
    );
  }
  return out;
}

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/**
 * An activity (compact JSON-LD, as queued) with the resolved mentions added to its Note: linked in
 * `content`, one `Mention` tag each, and each mentioned actor cc'd on the Note and the activity.
 * Anything else (a Delete's Tombstone) is returned as it is.
 */
export function withMentions(activity: unknown, mentions: readonly ResolvedMention[]): unknown {
  if (mentions.length === 0 || !activity || typeof activity !== 'object') return activity;
  const a = activity as Json;
  const object = a.object as Json | undefined;
  if (!object || typeof object !== 'object' || object.type !== 'Note') return activity;
  const actors = mentions.map((m) => m.actor_url);
  const cc = (v: unknown) => [...new Set([...list(v).map(String), ...actors])];
  return {
    ...a,
    cc: cc(a.cc),
    object: {
      ...object,
      cc: cc(object.cc),
      content: typeof object.content === 'string' ? linkMentions(object.content, mentions) : object.content,
      tag: [...list(object.tag), ...mentions.map((m) => ({ type: 'Mention', href: m.actor_url, name: m.handle }))],
    },
  };
}
