import { Invalid } from '../shared/errors.js';
import type { UploadedMedia } from './ports.js';
import { MEDIA_PLACEHOLDER, type MediaReference, requireMedia, type UploadType } from './reference.js';

/**
 * The one check of a media reference a client sends (`media`, `avatar`, `banner`, `background_image`…):
 * it must have the form upload naming produces for the accepted types (`requireMedia`), and name a
 * file that upload.php stored (the `UploadedMedia` port). Every service that accepts media takes this
 * and calls `require`/`optional` with the same arguments as the pure `requireMedia`/`optionalMediaField`,
 * awaited. A refusal is a 400 `invalid_media` naming the field.
 */
export class MediaReferences {
  constructor(private readonly uploaded: UploadedMedia) {}

  /** A reference that must parse and exist; see `requireMedia`. */
  async require(field: string, raw: string, accepts: readonly UploadType[]): Promise<MediaReference> {
    const ref = requireMedia(field, raw, accepts);
    if (!(await this.uploaded.exists(ref))) {
      throw Invalid.field(field, `names no uploaded file: upload it with upload.php first (${ref.path} does not exist)`, 'invalid_media');
    }
    return ref;
  }

  /** Several references of one field, each required (checked concurrently). */
  async requireAll(field: string, raws: readonly string[], accepts: readonly UploadType[]): Promise<MediaReference[]> {
    return Promise.all(raws.map((raw) => this.require(field, raw, accepts)));
  }

  /**
   * The stored form of an optional media field, as `optionalMediaField`: null, absent and blank mean
   * none; `default.svg` is kept where `placeholder` allows it; anything else must parse and exist.
   */
  async optional(field: string, raw: string | null | undefined, accepts: readonly UploadType[], options: { placeholder?: boolean } = {}): Promise<string | null> {
    const value = raw?.trim() ?? '';
    if (value === '') return null;
    if (options.placeholder && value === MEDIA_PLACEHOLDER) return MEDIA_PLACEHOLDER;
    return (await this.require(field, value, accepts)).value;
  }
}
