import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { toTimestamp } from '@plaza/domain';
import { parseMediaReference, UPLOAD_TYPES, UploadRegistry, uploadTypeOfPath, type UploadType } from '@plaza/domain/media';
import { resolve } from '@plaza/server';
import sharp from 'sharp';
import type { ApiClient, ApiResponse } from './client.js';
import type { TestServer } from './server.js';

/**
 * Files of every accepted kind, small and real enough for file-type to recognise them by their bytes
 * (images are real images sharp can decode; the others are their formats' headers).
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
      return Buffer.concat([ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']), Buffer.alloc(64)]);
    case 'mov':
      return Buffer.concat([ftyp('qt  ', ['qt  ']), Buffer.alloc(64)]);
    case 'm4a':
      return Buffer.concat([ftyp('M4A ', ['M4A ', 'mp42', 'isom']), Buffer.alloc(64)]);
    case 'webm':
      // EBML header with DocType "webm".
      return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84]), Buffer.from('webm'), Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]), Buffer.alloc(64)]);
    case 'mp3':
      return Buffer.concat([Buffer.from('ID3'), Buffer.from([0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(400)]);
    case 'wav': {
      const data = Buffer.alloc(64);
      const header = Buffer.alloc(44);
      header.write('RIFF', 0);
      header.writeUInt32LE(36 + data.length, 4);
      header.write('WAVE', 8);
      header.write('fmt ', 12);
      header.writeUInt32LE(16, 16);
      header.writeUInt16LE(1, 20);
      header.writeUInt16LE(1, 22);
      header.writeUInt32LE(8000, 24);
      header.writeUInt32LE(8000, 28);
      header.writeUInt16LE(1, 32);
      header.writeUInt16LE(8, 34);
      header.write('data', 36);
      header.writeUInt32LE(data.length, 40);
      return Buffer.concat([header, data]);
    }
    default:
      throw new Error(`no sample for .${ext}`);
  }
}

function ftyp(major: string, compatible: string[]): Buffer {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size);
  box.writeUInt32BE(size, 0);
  box.write('ftyp', 4);
  box.write(major, 8);
  box.writeUInt32BE(0, 12);
  compatible.forEach((c, i) => box.write(c, 16 + 4 * i));
  return box;
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
  const res = await fetch(`${api.baseUrl}/api/v1/upload.php`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
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
export async function uploadedMedia(api: ApiClient, who: { token: string }, type = 'posts', ext = 'jpg'): Promise<{ url: string; filename: string }> {
  const res = await upload(api, who.token, { name: `sample.${ext}`, bytes: await sampleFile(ext) }, type);
  if (res.status !== 200 || res.body?.success !== true) throw new Error(`uploadedMedia(${type}, ${ext}): ${res.status} ${JSON.stringify(res.body)}`);
  return { url: res.body.url, filename: res.body.filename };
}

/**
 * Puts a file where upload.php would have stored the one `reference` names, and records it as
 * `owner`'s upload as upload.php would have (docs/decisions/0114): for names a test wants fixed, and
 * the sweeps that need references of a given length (test/e2e/input-widths.test.ts). Placing a name
 * again for the same owner changes nothing; for another owner it throws (a test mixing its files up).
 * Null when it is no upload reference.
 */
export async function placeUploaded(t: Pick<TestServer, 'uploadsPath' | 'plaza'>, reference: string, owner: { id: number }): Promise<string | null> {
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
  if (recorded && recorded.owner_id !== owner.id) throw new Error(`recordUploaded: ${ref.path} is user ${recorded.owner_id}'s upload, not user ${owner.id}'s`);
  if (!recorded) await registry.record({ owner_id: owner.id, type, path: ref.path, size: null, sha256: null, created_at: toTimestamp(new Date()) });
  return ref.path;
}
