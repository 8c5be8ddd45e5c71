import { Invalid } from '../shared/errors.js';

/**
 * Media references: the values a client sends in `media`, `avatar`, `banner`… to point at a file that
 * upload.php stored. Upload naming (DESIGN.md §2, contract §12 and §36.6) puts a file at
 * `API_UPLOADS_PATH/<folder>/<prefix><random>.<ext>`; the display side resolves a bare name by its
 * prefix. A reference is accepted only if that naming can produce it, so that nothing a user sends
 * (`../../etc/passwd`, `https://tracker.example/pixel.gif`) reaches another user's screen.
 *
 * Pure: no file system. The services go through `MediaReferences` (references.ts), which parses with
 * these functions and then asks the `UploadedMedia` port whether upload.php produced the file.
 */

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic'] as const;
/** The video extensions the client plays (contract §12). */
export const VIDEO_EXTENSIONS = ['mp4', 'webm', 'mov', 'm4v', 'avi', 'mkv', 'ogg', 'ogv'] as const;
/** Voice notes of chat messages. */
export const AUDIO_EXTENSIONS = ['m4a', 'aac', 'mp3', 'opus', 'wav'] as const;

const VISUAL = [...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS];

/**
 * The `type` values of upload.php and where each puts its files. SVG is no upload extension: files are
 * served by the main web host, where an SVG could run script. `event_` is this server's choice (the
 * contract names only the events folder).
 */
export const UPLOAD_TYPES = {
  posts: { folder: 'uploads/posts/', prefixes: ['media_', 'group_post_'], extensions: VISUAL },
  stories: { folder: 'uploads/stories/', prefixes: ['story_', 'stories_'], extensions: VISUAL },
  messages: { folder: 'uploads/messages/', prefixes: ['messages_', 'msg_'], extensions: [...VISUAL, ...AUDIO_EXTENSIONS] },
  // Profile pictures and banners (upload types avatar and banner).
  avatar: { folder: 'uploads/', prefixes: ['avatar_', 'banner_'], extensions: [...IMAGE_EXTENSIONS] },
  // Avatars and covers of messaging groups, groups and pages (upload types group, groups, page, pages).
  group: { folder: 'uploads/', prefixes: ['group_', 'page_'], extensions: [...IMAGE_EXTENSIONS] },
  album: { folder: 'uploads/albums/', prefixes: ['album_'], extensions: VISUAL },
  event: { folder: 'uploads/events/', prefixes: ['event_'], extensions: [...IMAGE_EXTENSIONS] },
} as const satisfies Record<string, { folder: string; prefixes: readonly string[]; extensions: readonly string[] }>;

export type UploadType = keyof typeof UPLOAD_TYPES;

/** What the clients send for "no image" (contract §36.6); accepted where a placeholder makes sense. */
export const MEDIA_PLACEHOLDER = 'default.svg';

/** Longest file name accepted: the relative path then fits every media column (255 and up). */
export const MAX_MEDIA_NAME_LENGTH = 200;

/** A file name: letters, digits, `_` and `-` in dot-separated runs (PHP's `uniqid('', true)` has a dot), then the extension. */
const NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.([A-Za-z0-9]+)$/;
/** An optional origin and the path before the name; the name itself has no `/`. */
const REFERENCE = /^(?:https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?)?\/?((?:[A-Za-z0-9_-]+\/)*)([^/]+)$/;

export interface MediaReference {
  type: UploadType;
  /** The bare file name, `media_ab12.jpg`. */
  name: string;
  /** Relative to the uploads root's parent, as the main web host serves it: `uploads/posts/media_ab12.jpg`. */
  path: string;
  /** What to store: the name when it came bare, else the path (an origin and leading `/` dropped). */
  value: string;
}

/** The upload type a bare name belongs to: the longest matching prefix, as the display side resolves it. */
function typeOfName(name: string): UploadType | null {
  let best: { type: UploadType; length: number } | null = null;
  for (const [type, spec] of Object.entries(UPLOAD_TYPES) as [UploadType, (typeof UPLOAD_TYPES)[UploadType]][]) {
    for (const prefix of spec.prefixes) {
      if (name.startsWith(prefix) && (!best || prefix.length > best.length)) best = { type, length: prefix.length };
    }
  }
  return best?.type ?? null;
}

/**
 * Parses a reference to a file of one of `accepts`' upload types: a bare name (`media_ab12.jpg`), its
 * relative path (`uploads/posts/media_ab12.jpg`, `/uploads/…`), or that path under an origin
 * (`https://host/uploads/posts/media_ab12.jpg`, which upload.php may answer; the origin is dropped).
 * Null for anything else: another folder, prefix or extension, a `..`, a query string.
 */
export function parseMediaReference(raw: string, accepts: readonly UploadType[]): MediaReference | null {
  const m = REFERENCE.exec(raw.trim());
  if (!m) return null;
  const [, dir, name] = m;
  const ext = NAME.exec(name)?.[1];
  if (!ext || name.length > MAX_MEDIA_NAME_LENGTH) return null;
  const type = typeOfName(name);
  if (!type || !accepts.includes(type)) return null;
  const spec = UPLOAD_TYPES[type];
  if (!(spec.extensions as readonly string[]).includes(ext.toLowerCase())) return null;
  // A random part follows the prefix, starting with a letter or digit: `media_.jpg` has none.
  const prefix = spec.prefixes.find((p) => name.startsWith(p))!;
  if (!/^[A-Za-z0-9]/.test(name.slice(prefix.length, -(ext.length + 1)))) return null;
  if (dir !== '' && dir !== spec.folder) return null;
  const path = spec.folder + name;
  return { type, name, path, value: dir === '' ? name : path };
}

/** `type posts: media_<random>.<ext>`, for the refusal's message. */
function expected(accepts: readonly UploadType[]): string {
  return accepts.map((t) => `type ${t}: ${UPLOAD_TYPES[t].prefixes.map((p) => `${p}<random>.<ext>`).join(' or ')}`).join('; ');
}

/**
 * For the services: the stored form of an optional media field. Null, absent and blank mean "none";
 * `default.svg` is kept where `placeholder` allows it; anything else must parse, or the whole request
 * is refused with a 400 naming `field`.
 */
export function optionalMediaField(
  field: string,
  raw: string | null | undefined,
  accepts: readonly UploadType[],
  options: { placeholder?: boolean } = {},
): string | null {
  const value = raw?.trim() ?? '';
  if (value === '') return null;
  if (options.placeholder && value === MEDIA_PLACEHOLDER) return MEDIA_PLACEHOLDER;
  return requireMedia(field, value, accepts).value;
}

/** A media reference that must parse; see `parseMediaReference`. */
export function requireMedia(field: string, raw: string, accepts: readonly UploadType[]): MediaReference {
  const ref = parseMediaReference(raw, accepts);
  if (!ref) throw Invalid.field(field, `must be a file uploaded with upload.php (${expected(accepts)})`, 'invalid_media');
  return ref;
}
