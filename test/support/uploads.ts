import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { toTimestamp } from '@plaza/domain';
import { parseMediaReference, UPLOAD_TYPES, UploadRegistry, uploadTypeOfPath, type UploadType } from '@plaza/domain/media';
import { resolve } from '@plaza/server';
import sharp from 'sharp';
import type { ApiClient, ApiResponse } from './client.js';
import { mediaSample } from './media-samples.js';
import type { TestServer } from './server.js';

/**
 * Files of every accepted kind, small and real: images sharp decodes, videos and audio ffmpeg plays
 * (made by the server's own ffmpeg, test/support/media-samples.ts).
 */
export async function sampleFile(ext: string): Promise<Buffer> {
  const image = () => sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 200, g: 40, b: 40 } } });
  switch (ext) {
    case 'jpg':
      return image().jpeg().toBuffer();
    case 'png':
      return image().png().toBuffer();
    case 'gif':
      return image().gif().toBuffer();
    case 'webp':
      return image().webp().toBuffer();
    case 'mp4':
    case 'mov':
    case 'm4a':
    case 'webm':
    case 'mp3':
    case 'wav':
      // Stored videos and audio are remuxed by ffmpeg (docs/decisions/0110): they must be real files.
      return mediaSample(ext);
    default:
      throw new Error(`no sample for .${ext}`);
  }
}

/** POSTs upload.php as the mobile app does: multipart/form-data with `media` (the file) and `type`. */
export async function upload(
  api: ApiClient,
  token: string,
  file: { name: string; bytes: Buffer | Uint8Array; contentType?: string },
  type: string | null,
): Promise<ApiResponse> {
  const form = new FormData();
  if (type !== null) form.set('type', type);
  form.set('media', new Blob([new Uint8Array(file.bytes)], { type: file.contentType ?? 'application/octet-stream' }), file.name);
  const res = await fetch(`${api.baseUrl}/api/v1/upload.php`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * A file uploaded through upload.php by `who` (type `posts` unless said, a small `.jpg` unless `ext`
 * says another accepted kind); returns the answer's `url` and the bare `filename` the clients send.
 */
export async function uploadedMedia(
  api: ApiClient,
  who: { token: string },
  type = 'posts',
  ext = 'jpg',
): Promise<{ url: string; filename: string }> {
  const res = await upload(api, who.token, { name: `sample.${ext}`, bytes: await sampleFile(ext) }, type);
  if (res.status !== 200 || res.body?.success !== true)
    throw new Error(`uploadedMedia(${type}, ${ext}): ${res.status} ${JSON.stringify(res.body)}`);
  return { url: res.body.url, filename: res.body.filename };
}

/**
 * Puts a file where upload.php would have stored the one `reference` names, and records it as
 * `owner`'s upload as upload.php would have (docs/decisions/0114): for names a test wants fixed, and
 * the sweeps that need references of a given length (test/e2e/input-widths.test.ts). Placing a name
 * again for the same owner changes nothing; for another owner it throws (a test mixing its files up).
 * Null when it is no upload reference.
 */
export async function placeUploaded(
  t: Pick<TestServer, 'uploadsPath' | 'plaza'>,
  reference: string,
  owner: { id: number },
): Promise<string | null> {
  const path = await recordUploaded(t, reference, owner);
  if (!path) return null;
  const file = join(t.uploadsPath, path.replace(/^uploads\//, ''));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, await sampleFile('jpg'));
  return file;
}

/** Records the file `reference` names as `owner`'s upload, as upload.php would have, leaving the file to the test; its path. */
export async function recordUploaded(t: Pick<TestServer, 'plaza'>, reference: string, owner: { id: number }): Promise<string | null> {
  const ref = parseMediaReference(reference, Object.keys(UPLOAD_TYPES) as UploadType[]);
  const type = ref && uploadTypeOfPath(ref.path);
  if (!ref || !type) return null;
  const registry = resolve(t.plaza.container, UploadRegistry);
  const recorded = await registry.findByPath(ref.path);
  if (recorded && recorded.owner_id !== owner.id)
    throw new Error(`recordUploaded: ${ref.path} is user ${recorded.owner_id}'s upload, not user ${owner.id}'s`);
  if (!recorded)
    await registry.record({ owner_id: owner.id, type, path: ref.path, size: null, sha256: null, created_at: toTimestamp(new Date()) });
  return ref.path;
}
