import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Invalid, PayloadTooLarge, UnsupportedMediaType } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import type { MediaInspector, MediaStore } from './ports.js';
import { UPLOAD_TYPES, type UploadType } from './reference.js';
import type { UploadFiles, UploadRegistry } from './uploads.js';

/** The spec's upload-type vocabulary (the `type` field of upload.php). */
export const UPLOAD_TYPE_NAMES = [
  'posts',
  'stories',
  'messages',
  'avatar',
  'banner',
  'group',
  'groups',
  'group_post',
  'page',
  'pages',
  'event',
  'album',
] as const;
export type UploadTypeName = (typeof UPLOAD_TYPE_NAMES)[number];

/** Largest file upload.php takes (spec, Limits). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export type MediaKind = 'image' | 'video' | 'audio';

/**
 * The spec's accepted extensions and what each is. `jpeg` is taken as a name for `jpg` (phones write
 * both); a stored file always carries the extension of its sniffed type, so never `jpeg`.
 */
export const ACCEPTED_EXTENSIONS: Readonly<Record<string, MediaKind>> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  mp4: 'video',
  webm: 'video',
  mov: 'video',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
};

/**
 * Where each upload type stores (DESIGN.md §2, contract §12 and §36.6): the reference type whose
 * folder and extensions apply, and the file-name prefix by which the display side finds the folder
 * of a bare name. Avatars, banners and the avatars and covers of groups and pages are images only.
 */
export const UPLOAD_DESTINATIONS: Readonly<Record<UploadTypeName, { kind: UploadType; prefix: string }>> = {
  posts: { kind: 'posts', prefix: 'media_' },
  group_post: { kind: 'posts', prefix: 'group_post_' },
  stories: { kind: 'stories', prefix: 'story_' },
  messages: { kind: 'messages', prefix: 'messages_' },
  avatar: { kind: 'avatar', prefix: 'avatar_' },
  banner: { kind: 'avatar', prefix: 'banner_' },
  group: { kind: 'group', prefix: 'group_' },
  groups: { kind: 'group', prefix: 'group_' },
  page: { kind: 'group', prefix: 'page_' },
  pages: { kind: 'group', prefix: 'page_' },
  event: { kind: 'event', prefix: 'event_' },
  album: { kind: 'album', prefix: 'album_' },
};

export function isUploadTypeName(value: string): value is UploadTypeName {
  return (UPLOAD_TYPE_NAMES as readonly string[]).includes(value);
}

/** A file received by upload.php, waiting in a temporary directory. */
export interface IncomingFile {
  /** Path of the temporary file. */
  path: string;
  /** The name the client gave it (its extension is the claimed type). */
  originalName: string;
  size: number;
}

export interface StoredUpload {
  type: UploadTypeName;
  /** The bare name, `media_3f9a….jpg`. */
  name: string;
  /** Relative path as the main web application serves it: `uploads/posts/media_3f9a….jpg`. */
  path: string;
  kind: MediaKind;
  mime: string;
  size: number;
}

/** The extensions a type of upload accepts: the spec's list, narrowed to what its folder holds. */
export function extensionsOf(type: UploadTypeName): string[] {
  const allowed = UPLOAD_TYPES[UPLOAD_DESTINATIONS[type].kind].extensions as readonly string[];
  return Object.keys(ACCEPTED_EXTENSIONS).filter((ext) => allowed.includes(ext));
}

/** Time-based media (video and audio) share containers (mp4/m4a/mov, webm): either matches the other. */
function sameFamily(a: MediaKind, b: MediaKind): boolean {
  return a === b || (a !== 'image' && b !== 'image');
}

/**
 * upload.php: takes a received file, checks its claimed extension and its sniffed content against the
 * upload type, and stores it under a fresh random name (images re-encoded, videos and audio remuxed,
 * without their metadata). The temporary file is the HTTP adapter's to remove, whatever happens here.
 */
export class UploadService {
  constructor(
    private readonly inspector: MediaInspector,
    private readonly store: MediaStore,
    /** Each stored file is recorded with its owner (docs/decisions/0114). */
    private readonly registry: UploadRegistry,
    private readonly files: UploadFiles,
    private readonly clock: Clock,
  ) {}

  async upload(actor: Actor, type: string, file: IncomingFile): Promise<StoredUpload> {
    if (!isUploadTypeName(type)) throw Invalid.field('type', `must be one of ${UPLOAD_TYPE_NAMES.join(', ')}`, 'invalid_upload_type');
    if (file.size > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The file is larger than 100 MB', 'file_too_large');
    if (file.size === 0) throw Invalid.field('media', 'the file is empty', 'empty_file');
    const accepted = extensionsOf(type);
    const what =
      type === 'avatar' || type === 'banner' || accepted.every((e) => ACCEPTED_EXTENSIONS[e] === 'image') ? 'an image' : 'a file';
    const claimed = /\.([A-Za-z0-9]{1,8})$/.exec(file.originalName)?.[1]?.toLowerCase() ?? '';
    const claimedKind = ACCEPTED_EXTENSIONS[claimed];
    if (!claimedKind || !accepted.includes(claimed)) {
      throw new UnsupportedMediaType(
        `type ${type} takes ${what} named .${accepted.join(', .')}; got ${claimed ? `.${claimed}` : 'a name without extension'}`,
        'unsupported_file_type',
      );
    }
    const sniffed = await this.inspector.sniff(file.path);
    const sniffedKind = sniffed ? ACCEPTED_EXTENSIONS[sniffed.ext] : undefined;
    if (!sniffed || !sniffedKind || !accepted.includes(sniffed.ext) || !sameFamily(claimedKind, sniffedKind)) {
      const found = sniffed ? `${sniffed.mime} content` : 'content of no known media type';
      throw new UnsupportedMediaType(
        `The file is named .${claimed} but is ${found}: type ${type} takes ${what} (${accepted.join(', ')})`,
        'unsupported_file_type',
      );
    }
    const { kind, prefix } = UPLOAD_DESTINATIONS[type];
    const folder = UPLOAD_TYPES[kind].folder;
    const stored = await this.store.store(file.path, { folder, prefix, ext: sniffed.ext, image: sniffedKind === 'image' });
    await this.record(actor, type, folder + stored.name);
    return { type, name: stored.name, path: folder + stored.name, kind: sniffedKind, mime: sniffed.mime, size: stored.size };
  }

  /** The uploads row, in the same request. A file that cannot be recorded is removed: nothing would ever collect it. */
  private async record(actor: Actor, type: UploadTypeName, path: string): Promise<void> {
    try {
      const { size, sha256 } = await this.files.digest(path);
      await this.registry.record({ owner_id: actor.userId, type, path, size, sha256, created_at: toTimestamp(this.clock.now()) });
    } catch (error) {
      await this.files.remove(path).catch(() => false);
      throw error;
    }
  }
}
