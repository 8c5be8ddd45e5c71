import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import type { UploadFiles } from '@plaza/domain/media';
import { uploadsFile } from '../media/fs-media.js';

/** The stored files under `API_UPLOADS_PATH`, by their relative `uploads/...` path (docs/decisions/0114). */
export class FsUploadFiles implements UploadFiles {
  constructor(private readonly uploadsPath: string) {}

  /** Streams the file through SHA-256: a 100 MB video is never held in memory. */
  async digest(path: string): Promise<{ size: number; sha256: string }> {
    const file = this.file(path);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    return { size: (await stat(file)).size, sha256: hash.digest('hex') };
  }

  async remove(path: string): Promise<boolean> {
    try {
      await unlink(this.file(path));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  private file(path: string): string {
    const file = uploadsFile(this.uploadsPath, path);
    if (!file) throw new Error(`${path} is not under the uploads directory`);
    return file;
  }
}
