import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { UnsupportedMediaType } from '@plaza/domain';
import type { MediaInspector, MediaReference, MediaStore, SniffedType, UploadedMedia, UploadTarget } from '@plaza/domain/media';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { FfmpegRemuxer } from './ffmpeg-remuxer.js';

/**
 * The file under the uploads root that a relative `uploads/...` path names (the root is
 * `API_UPLOADS_PATH`, the `uploads/` folder the main web application serves); null if it would leave it.
 */
export function uploadsFile(uploadsPath: string, path: string): string | null {
  const file = resolve(uploadsPath, path.replace(/^uploads\//, ''));
  const rel = relative(uploadsPath, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? file : null;
}

/** Whether a reference names a regular file under `API_UPLOADS_PATH`. */
export class FsUploadedMedia implements UploadedMedia {
  constructor(private readonly uploadsPath: string) {}

  async exists(reference: MediaReference): Promise<boolean> {
    const file = uploadsFile(this.uploadsPath, reference.path);
    if (!file) return false;
    try {
      return (await stat(file)).isFile();
    } catch {
      return false;
    }
  }
}

/** The type of a file from its first bytes (file-type), whatever its name says. */
export class FileTypeMediaInspector implements MediaInspector {
  async sniff(file: string): Promise<SniffedType | null> {
    const found = await fileTypeFromFile(file);
    return found ? { ext: found.ext, mime: found.mime } : null;
  }
}

const IMAGE_OUTPUT: Record<string, (s: sharp.Sharp) => sharp.Sharp> = {
  jpg: (s) => s.jpeg({ quality: 90 }),
  png: (s) => s.png(),
  gif: (s) => s.gif(),
  webp: (s) => s.webp({ quality: 90 }),
};

/**
 * How strictly sharp decodes (docs/decisions/0110). `error` accepts what libjpeg and libpng only warn
 * about (extraneous bytes before a marker, as cameras and editors write), and still refuses a
 * truncated file or a serious decoding error; `truncated` would let a corrupt image through.
 */
const DECODE = { failOn: 'error' } as const;

/**
 * Stores uploads under `API_UPLOADS_PATH`. Images are decoded and encoded again by sharp in their own
 * format: the EXIF orientation is applied first (`rotate()`), then every metadata block (EXIF with its
 * GPS position and device, XMP, IPTC, ICC) is left behind, as sharp does unless told to keep it.
 * Videos and audio are remuxed by ffmpeg without their metadata (ffmpeg-remuxer.ts). A file appears
 * under its final name only once complete (written to a hidden `.part` name first, then renamed).
 */
export class FsMediaStore implements MediaStore {
  constructor(
    private readonly uploadsPath: string,
    private readonly remuxer: FfmpegRemuxer,
  ) {}

  async store(file: string, target: UploadTarget): Promise<{ name: string; size: number }> {
    const name = `${target.prefix}${randomBytes(16).toString('hex')}.${target.ext}`;
    const dir = uploadsFile(this.uploadsPath, `${target.folder}x`);
    if (!dir) throw new Error(`upload folder ${target.folder} is outside the uploads directory`);
    const folder = resolve(dir, '..');
    await mkdir(folder, { recursive: true });
    const final = join(folder, name);
    const part = join(folder, `.${name}.part`);
    try {
      if (target.image) await this.reencode(file, part, target.ext);
      else await this.remuxer.remux(file, part, target.ext);
      await rename(part, final);
    } catch (error) {
      await unlink(part).catch(() => {});
      throw error;
    }
    return { name, size: (await stat(final)).size };
  }

  private async reencode(file: string, out: string, ext: string): Promise<void> {
    const encode = IMAGE_OUTPUT[ext];
    if (!encode) throw new UnsupportedMediaType(`Images of type ${ext} are not stored`, 'unsupported_file_type');
    try {
      const { pages = 1 } = await sharp(file, DECODE).metadata();
      const animated = pages > 1;
      // An animation keeps its frames; orientation tags belong to still photos.
      let image = sharp(file, { ...DECODE, animated });
      if (!animated) image = image.rotate();
      await encode(image).toFile(out);
    } catch (error) {
      if (error instanceof UnsupportedMediaType) throw error;
      throw new UnsupportedMediaType(`The image could not be decoded: ${(error as Error).message.slice(0, 120)}`, 'invalid_image');
    }
  }
}
