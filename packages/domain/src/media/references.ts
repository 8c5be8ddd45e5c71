import type { Clock } from '../shared/clock.js';
import { Invalid } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import type { UploadedMedia } from './ports.js';
import { MEDIA_PLACEHOLDER, type MediaReference, requireMedia, type UploadType } from './reference.js';
import { referenceTypeOf, type UploadRegistry } from './uploads.js';

/**
 * Whose uploads a reference may name (docs/decisions/0114): the caller's own (an `Actor` is one) and,
 * where a team edits the record (a page, a group), a teammate's: `teammate` says whether the upload's
 * owner is on the team of the record being written.
 */
export interface Uploader {
  userId: number;
  teammate?: (ownerId: number) => Promise<boolean>;
}

/**
 * The one check of a media reference a client sends (`media`, `avatar`, `banner`, `background_image`…):
 * it must have the form upload naming produces for the accepted types (`requireMedia`), name an upload
 * recorded in the uploads table of a type that fits the field, uploaded by the caller (or a teammate,
 * see `Uploader`), whose file is still there (the `UploadedMedia` port). Every service that accepts
 * media takes this and calls `require`/`optional` with the caller first, then the same arguments as the
 * pure `requireMedia`/`optionalMediaField`, awaited. A refusal is a 400 naming the field: `invalid_media`,
 * or `media_not_yours` for another account's upload; nothing is changed. An accepted upload is marked
 * referenced, which keeps the collection job (0114) away from it.
 */
export class MediaReferences {
  constructor(
    private readonly uploaded: UploadedMedia,
    private readonly registry: UploadRegistry,
    private readonly clock: Clock,
  ) {}

  /** A reference that must parse, be the uploader's and exist; see `requireMedia`. */
  async require(uploader: Uploader, field: string, raw: string, accepts: readonly UploadType[]): Promise<MediaReference> {
    const ref = requireMedia(field, raw, accepts);
    const upload = await this.registry.findByPath(ref.path);
    const missing = () =>
      Invalid.field(field, `names no uploaded file: upload it with upload.php first (${ref.path} was not uploaded)`, 'invalid_media');
    if (!upload || upload.erased_at !== null) throw missing();
    if (!accepts.includes(referenceTypeOf(upload.type))) {
      throw Invalid.field(field, `names an upload of type ${upload.type}, which this field does not take`, 'invalid_media');
    }
    if (upload.owner_id !== uploader.userId && !(await uploader.teammate?.(upload.owner_id))) {
      throw Invalid.field(field, 'names a file another account uploaded: upload your own with upload.php', 'media_not_yours');
    }
    if (!(await this.uploaded.exists(ref))) throw missing();
    // Collected between the read and now: the conditional mark finds no record.
    if (upload.referenced_at === null && !(await this.registry.markReferenced(upload.id, toTimestamp(this.clock.now())))) throw missing();
    return ref;
  }

  /** Several references of one field, each required (checked concurrently). */
  async requireAll(uploader: Uploader, field: string, raws: readonly string[], accepts: readonly UploadType[]): Promise<MediaReference[]> {
    return Promise.all(raws.map((raw) => this.require(uploader, field, raw, accepts)));
  }

  /**
   * The stored form of an optional media field, as `optionalMediaField`: null, absent and blank mean
   * none; `default.svg` is kept where `placeholder` allows it; anything else is `require`d.
   */
  async optional(
    uploader: Uploader,
    field: string,
    raw: string | null | undefined,
    accepts: readonly UploadType[],
    options: { placeholder?: boolean } = {},
  ): Promise<string | null> {
    const value = raw?.trim() ?? '';
    if (value === '') return null;
    if (options.placeholder && value === MEDIA_PLACEHOLDER) return MEDIA_PLACEHOLDER;
    return (await this.require(uploader, field, value, accepts)).value;
  }
}
