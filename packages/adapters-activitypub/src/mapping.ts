import { Create, type DocumentLoader, isActor, Link, Note, type Actor, type Object as ApObject } from '@fedify/fedify';
import { type Timestamp, toTimestamp } from '@plaza/domain';
import { type RemoteActor, type RemotePostInput, sanitizeRemoteHtml } from '@plaza/domain/federation';

export interface Loaders {
  documentLoader: DocumentLoader;
  contextLoader: DocumentLoader;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const hrefOf = (v: URL | Link | null | undefined): string | null =>
  v instanceof URL ? v.href : v instanceof Link ? (v.href?.href ?? null) : null;

/** A remote actor document reduced to what Plaza keeps; null when it cannot be delivered to (no id or inbox). */
export async function toRemoteActor(actor: Actor, loaders: Loaders, at: Date): Promise<RemoteActor | null> {
  if (!actor.id || !actor.inboxId) return null;
  if (actor.id.protocol !== 'https:' && actor.id.protocol !== 'http:') return null;
  // What does not fit our columns is no actor we can keep (ids are keys of 512 characters, URLs 2048).
  const shared = actor.endpoints?.sharedInbox?.href ?? null;
  const outbox = actor.outboxId?.href ?? null;
  if (
    actor.id.href.length > 512 ||
    actor.inboxId.href.length > 2048 ||
    (shared?.length ?? 0) > 2048 ||
    (outbox?.length ?? 0) > 2048 ||
    actor.id.host.length > 255
  )
    return null;
  let avatar: string | null = null;
  try {
    const icon = await actor.getIcon(loaders);
    avatar = icon ? (hrefOf(icon.url) ?? null) : null;
  } catch {
    avatar = null;
  }
  const page = hrefOf(actor.url);
  const username =
    text(actor.preferredUsername) || decodeURIComponent(actor.id.pathname.split('/').filter(Boolean).pop() ?? '') || actor.id.host;
  return {
    actor_url: actor.id.href,
    inbox_url: actor.inboxId.href,
    shared_inbox_url: shared,
    outbox_url: outbox,
    username: username.slice(0, 255),
    display_name: (text(actor.name) || username).slice(0, 255),
    domain: actor.id.host,
    avatar: avatar && avatar.length <= 2048 ? avatar : null,
    // Remote HTML is kept only through the allowlist (no script, style, event handler: remote-html.ts).
    summary: sanitizeRemoteHtml(text(actor.summary)),
    profile_url: page && page.length <= 2048 ? page : actor.id.href,
    fetched_at: toTimestamp(at),
  };
}

export { isActor };

function timestampOf(instant: { epochMilliseconds: number } | null, fallback: Date): Timestamp {
  return toTimestamp(instant ? new Date(instant.epochMilliseconds) : fallback);
}

/** A Note as a remote post; null when it has no id or author. The first image or video attachment is its media. */
export async function toRemotePost(note: Note, actorUrl: string | null, loaders: Loaders, at: Date): Promise<RemotePostInput | null> {
  const author = note.attributionId?.href ?? actorUrl;
  if (!note.id || !author || note.id.href.length > 512 || author.length > 512) return null;
  let media_url: string | null = null;
  let media_type: 'image' | 'video' | null = null;
  try {
    for await (const a of note.getAttachments(loaders)) {
      const type = 'mediaType' in a ? text((a as { mediaType: unknown }).mediaType) : '';
      const url = a instanceof Link ? (a.href?.href ?? null) : hrefOf((a as ApObject).url);
      if (url && /^(image|video)\//.test(type)) {
        media_url = url;
        media_type = type.startsWith('video/') ? 'video' : 'image';
        break;
      }
    }
  } catch {
    // Attachments that do not resolve leave the post without media.
  }
  const page = hrefOf(note.url);
  return {
    object_id: note.id.href,
    actor_url: author,
    url: page && page.length <= 2048 ? page : note.id.href,
    content: sanitizeRemoteHtml(text(note.content)),
    media_url: media_url && media_url.length <= 2048 ? media_url : null,
    media_type: media_url && media_url.length <= 2048 ? media_type : null,
    published_at: timestampOf(note.published, at),
  };
}

/** The Note an outbox item carries: a Create's object, or a bare Note. */
export async function noteOf(item: unknown, loaders: Loaders): Promise<{ note: Note; actorUrl: string | null } | null> {
  if (item instanceof Note) return { note: item, actorUrl: null };
  if (item instanceof Create) {
    const object = await item.getObject(loaders);
    return object instanceof Note ? { note: object, actorUrl: item.actorId?.href ?? null } : null;
  }
  return null;
}
