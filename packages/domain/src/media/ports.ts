import { token } from '../shared/token.js';
import type { MediaReference } from './reference.js';

/**
 * The files upload.php stored: whether a reference names one of them. The file system adapter looks
 * under `API_UPLOADS_PATH` (shared with the main web application, whose own uploads count too).
 */
export interface UploadedMedia {
  /** True when a regular file exists at `reference.path` (in the folder its type stores into). */
  exists(reference: MediaReference): Promise<boolean>;
}
export const UploadedMedia = token<UploadedMedia>('media.UploadedMedia');

/** What the bytes of a file are, read from its magic bytes (never from its name or the client's word). */
export interface SniffedType {
  /** The extension that type is stored with: `jpg`, `png`, `mp4`, `m4a`… */
  ext: string;
  mime: string;
}

/** Reads a file's type from its content. */
export interface MediaInspector {
  /** Null when the content is no type the inspector knows. */
  sniff(file: string): Promise<SniffedType | null>;
}
export const MediaInspector = token<MediaInspector>('media.MediaInspector');

/** Where an upload goes: `<folder><prefix><random>.<ext>`, relative to the parent of the uploads root. */
export interface UploadTarget {
  /** `uploads/posts/`, `uploads/`… */
  folder: string;
  prefix: string;
  ext: string;
  /**
   * Re-encode as an image of the same format, orientation applied and every metadata block (EXIF, XMP,
   * IPTC) dropped; otherwise (video, audio) remux into the same container without its tags.
   */
  image: boolean;
}

/** Moves received files into the uploads directory. */
export interface MediaStore {
  /**
   * Stores the temporary file `file` at a new random name under `target`, re-encoding images and
   * remuxing videos and audio without their metadata (docs/decisions/0040, 0110), and returns that name
   * and its stored size. A file that cannot be decoded or remuxed is refused (UnsupportedMediaType);
   * when the server cannot process that kind of file at all, Unavailable. The temporary file is left
   * for the caller to remove.
   */
  store(file: string, target: UploadTarget): Promise<{ name: string; size: number }>;
}
export const MediaStore = token<MediaStore>('media.MediaStore');

/** A text translated by the backend. */
export interface Translation {
  text: string;
  /** The language the backend detected in the source, when it says. */
  detectedLanguage: string | null;
}

/**
 * A translation backend (LibreTranslate-compatible in production). Fails with `Unavailable` when the
 * backend cannot be reached or fails, and with `Invalid` when it refuses the request itself (an
 * unsupported target language).
 */
export interface Translator {
  translate(request: { text: string; target: string }): Promise<Translation>;
}
export const Translator = token<Translator>('media.Translator');

/** Translations already made, by request (target language and text). */
export interface TranslationCache {
  get(target: string, text: string): Promise<Translation | null>;
  set(target: string, text: string, translation: Translation): Promise<void>;
}
export const TranslationCache = token<TranslationCache>('media.TranslationCache');
