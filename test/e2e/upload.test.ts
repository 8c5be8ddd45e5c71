import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UPLOAD_TYPE_NAMES } from '@plaza/domain/media';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';
import { sampleFile, upload, uploadedMedia } from '../support/uploads.js';

const t = await startTestServer();
afterAll(() => t.close());

/** Every file under a directory, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

const storedFile = (url: string) => join(t.uploadsPath, url.replace(/^uploads\//, ''));

/** Whether a JPEG's EXIF block (APP1 "Exif\0\0") has a GPS IFD pointer (tag 0x8825) in IFD0; null without EXIF. */
function exifHasGps(jpeg: Buffer): boolean | null {
  const at = jpeg.indexOf(Buffer.from('Exif\0\0', 'latin1'));
  if (at < 0) return null;
  const tiff = jpeg.subarray(at + 6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let i = 0; i < count; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

describe('upload.php', () => {
  it('stores a file of each type in its folder with its prefix, and answers the relative path', async () => {
    const u = await aUser(t.api);
    const expected: Record<string, RegExp> = {
      posts: /^uploads\/posts\/media_[0-9a-f]{32}\.jpg$/,
      group_post: /^uploads\/posts\/group_post_[0-9a-f]{32}\.jpg$/,
      stories: /^uploads\/stories\/story_[0-9a-f]{32}\.jpg$/,
      messages: /^uploads\/messages\/messages_[0-9a-f]{32}\.jpg$/,
      avatar: /^uploads\/avatar_[0-9a-f]{32}\.jpg$/,
      banner: /^uploads\/banner_[0-9a-f]{32}\.jpg$/,
      group: /^uploads\/group_[0-9a-f]{32}\.jpg$/,
      groups: /^uploads\/group_[0-9a-f]{32}\.jpg$/,
      page: /^uploads\/page_[0-9a-f]{32}\.jpg$/,
      pages: /^uploads\/page_[0-9a-f]{32}\.jpg$/,
      event: /^uploads\/events\/event_[0-9a-f]{32}\.jpg$/,
      album: /^uploads\/albums\/album_[0-9a-f]{32}\.jpg$/,
    };
    expect(Object.keys(expected).sort()).toEqual([...UPLOAD_TYPE_NAMES].sort());
    for (const type of UPLOAD_TYPE_NAMES) {
      const res = await upload(t.api, u.token, { name: 'IMG_0001.JPG', bytes: await sampleFile('jpg'), contentType: 'image/jpeg' }, type);
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body).toMatchObject({ success: true, type, media_type: 'image', mime_type: 'image/jpeg' });
      expect(res.body.url, type).toMatch(expected[type]);
      expect(res.body.filename).toBe(res.body.url.split('/').pop());
      expect(statSync(storedFile(res.body.url)).size).toBe(res.body.size);
    }
  });

  it('accepts each accepted kind, by name and by content, where its type takes it', async () => {
    const u = await aUser(t.api);
    const kinds: [string, string, string][] = [
      ['png', 'posts', 'image'],
      ['gif', 'posts', 'image'],
      ['webp', 'stories', 'image'],
      ['mp4', 'posts', 'video'],
      ['webm', 'stories', 'video'],
      ['mov', 'album', 'video'],
      ['mp3', 'messages', 'audio'],
      ['wav', 'messages', 'audio'],
      ['m4a', 'messages', 'audio'],
    ];
    for (const [ext, type, kind] of kinds) {
      const bytes = await sampleFile(ext);
      const res = await upload(t.api, u.token, { name: `file.${ext}`, bytes }, type);
      expect(res.status, `${ext}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.media_type, ext).toBe(kind);
      expect(res.body.url.endsWith(`.${ext}`), res.body.url).toBe(true);
      // Videos and audio are remuxed without their metadata (test/e2e/media-metadata.test.ts).
      expect(statSync(storedFile(res.body.url)).size, ext).toBe(res.body.size);
    }
    // A .jpeg name is a jpg.
    const jpeg = await upload(t.api, u.token, { name: 'photo.jpeg', bytes: await sampleFile('jpg') }, 'posts');
    expect(jpeg.body.url).toMatch(/\.jpg$/);
  });

  it('stores a PNG named .jpg as .png, and refuses a script renamed .jpg (415), storing nothing', async () => {
    const u = await aUser(t.api);
    const png = await upload(t.api, u.token, { name: 'photo.jpg', bytes: await sampleFile('png'), contentType: 'image/jpeg' }, 'posts');
    expect(png.status).toBe(200);
    expect(png.body.url).toMatch(/^uploads\/posts\/media_[0-9a-f]{32}\.png$/);
    expect((await sharp(readFileSync(storedFile(png.body.url))).metadata()).format).toBe('png');

    const before = filesUnder(t.uploadsPath);
    const script = Buffer.from('#!/bin/sh\nrm -rf / --no-preserve-root\n<?php system($_GET["c"]); ?>\n');
    const refused = await upload(t.api, u.token, { name: 'cute-cat.jpg', bytes: script, contentType: 'image/jpeg' }, 'posts');
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ success: false, code: 'unsupported_file_type' });
    // A real image under a name outside the list, and a video as an avatar or a banner.
    expect((await upload(t.api, u.token, { name: 'photo.php', bytes: await sampleFile('jpg') }, 'posts')).status).toBe(415);
    expect((await upload(t.api, u.token, { name: 'photo', bytes: await sampleFile('jpg') }, 'posts')).status).toBe(415);
    expect((await upload(t.api, u.token, { name: 'clip.mp4', bytes: await sampleFile('mp4') }, 'avatar')).status).toBe(415);
    expect((await upload(t.api, u.token, { name: 'clip.jpg', bytes: await sampleFile('mp4') }, 'banner')).status).toBe(415);
    // Audio where only images and videos go; an image named as a video.
    expect((await upload(t.api, u.token, { name: 'voice.mp3', bytes: await sampleFile('mp3') }, 'posts')).status).toBe(415);
    expect((await upload(t.api, u.token, { name: 'photo.mp4', bytes: await sampleFile('jpg') }, 'posts')).status).toBe(415);
    // Bytes that claim to be a JPEG but do not decode.
    const broken = Buffer.concat([(await sampleFile('jpg')).subarray(0, 20), Buffer.alloc(50, 0x41)]);
    expect((await upload(t.api, u.token, { name: 'broken.jpg', bytes: broken }, 'posts')).status).toBe(415);
    expect(filesUnder(t.uploadsPath)).toEqual(before);
    expect(filesUnder(t.uploadTmpDir)).toEqual([]);
  });

  it('strips GPS and device metadata from a photo, applying its orientation first', async () => {
    const u = await aUser(t.api);
    const photo = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3a6' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PlazaPhone', Model: 'Leaky 1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2952/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 720/100' },
      })
      .toBuffer();
    // The test's photo does carry what must go.
    expect(exifHasGps(photo)).toBe(true);
    expect(photo.includes('PlazaPhone')).toBe(true);
    expect((await sharp(photo).metadata()).orientation).toBe(6);

    const res = await upload(t.api, u.token, { name: 'IMG_2001.jpg', bytes: photo, contentType: 'image/jpeg' }, 'posts');
    expect(res.status).toBe(200);
    const stored = readFileSync(storedFile(res.body.url));
    expect(exifHasGps(stored)).toBeNull();
    expect(stored.includes('PlazaPhone')).toBe(false);
    expect(stored.includes(Buffer.from('http://ns.adobe.com/xap/1.0/'))).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    // Rotated as the orientation said: 8×6 turned a quarter is 6×8, with no orientation left to apply.
    expect([meta.width, meta.height]).toEqual([6, 8]);
    expect(meta.orientation).toBeUndefined();
  });

  it('cuts a 101 MB upload off while streaming: 413, nothing stored, no temporary file, no memory spike', async () => {
    const u = await aUser(t.api);
    const before = filesUnder(t.uploadsPath);
    const boundary = '----plaza-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nposts\r\n--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const mp4 = await sampleFile('mp4');
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const total = 101 * 1024 * 1024;
    async function* body() {
      yield head;
      yield mp4;
      for (let sent = mp4.length; sent < total; sent += chunk.length) yield chunk;
      yield tail;
    }
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = Date.now();
    let res: Response;
    try {
      // Chunked, no Content-Length: the server learns the size only by reading.
      res = await fetch(`${t.url}/api/v1/upload.php`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${u.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: ReadableStreamFrom(body()),
        duplex: 'half',
      } as RequestInit);
    } finally {
      clearInterval(sampler);
    }
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: 'file_too_large' });
    console.log(`101 MB upload: 413 after ${Date.now() - started} ms, rss +${Math.round((peak - baseline) / 1048576)} MB`);
    // Buffered, the body alone would be 101 MB; streamed, the server holds a few chunks at a time.
    expect(peak - baseline).toBeLessThan(64 * 1024 * 1024);
    expect(filesUnder(t.uploadsPath)).toEqual(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(readdirSync(t.uploadTmpDir)).toEqual([]);

    // A declared length over the cap is refused before reading.
    const declared = await fetch(`${t.url}/api/v1/upload.php`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${u.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(total + 2 * 1024 * 1024),
      },
      body: ReadableStreamFrom(body()),
      duplex: 'half',
    } as RequestInit).catch((e: Error) => e);
    if (declared instanceof Response) expect(declared.status).toBe(413);
    expect(filesUnder(t.uploadsPath)).toEqual(before);
    expect(readdirSync(t.uploadTmpDir)).toEqual([]);
  });

  it('stores 20 identical concurrent uploads as 20 files, without a 5xx', async () => {
    const u = await aUser(t.api);
    const bytes = await sampleFile('jpg');
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(t.api, u.token, { name: 'same.jpg', bytes }, 'stories')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const urls = new Set(answers.map((a) => a.body.url));
    expect(urls.size).toBe(20);
    for (const url of urls) expect(statSync(storedFile(url)).isFile()).toBe(true);
    expect(readdirSync(t.uploadTmpDir)).toEqual([]);
  });

  it('refuses a missing or unknown type and a missing file (400), and anonymous uploads (401)', async () => {
    const u = await aUser(t.api);
    const jpg = { name: 'a.jpg', bytes: await sampleFile('jpg') };
    const unknown = await upload(t.api, u.token, jpg, 'documents');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('type');
    expect((await upload(t.api, u.token, jpg, null)).status).toBe(400);
    const noFile = await t.api.post('upload.php', { type: 'posts' }, { token: u.token });
    expect(noFile.status).toBe(400);
    expect(noFile.body.code).toBe('missing_file');
    expect((await upload(t.api, 'not-a-token', jpg, 'posts')).status).toBe(401);
    expect(readdirSync(t.uploadTmpDir)).toEqual([]);
  });

  it('is what media references must name: a post or story with a file never uploaded is a 400', async () => {
    const u = await aUser(t.api);
    const never = await t.api.post(
      'posts.php',
      { content: 'look', media: ['media_0123456789abcdef0123456789abcdef.jpg'] },
      { token: u.token },
    );
    expect(never.status).toBe(400);
    expect(never.body.code).toBe('invalid_media');
    const story = await t.api.post('stories.php', { media: 'story_0123456789abcdef0123456789abcdef.jpg' }, { token: u.token });
    expect(story.status).toBe(400);
    const avatar = await t.api.put('users.php', { avatar: 'uploads/avatar_0123456789abcdef0123456789abcdef.jpg' }, { token: u.token });
    expect(avatar.status).toBe(400);

    const media = await uploadedMedia(t.api, u, 'posts');
    const post = await t.api.post('posts.php', { content: 'look', media: [media.filename] }, { token: u.token });
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    // The same file under another type's folder name is not it.
    const misplaced = await t.api.post('stories.php', { media: media.filename.replace('media_', 'story_') }, { token: u.token });
    expect(misplaced.status).toBe(400);
    const own = await uploadedMedia(t.api, u, 'avatar');
    expect((await t.api.put('users.php', { avatar: own.url }, { token: u.token })).status).toBe(200);
  });
});

describe('upload.php rate limit', () => {
  it('counts in the upload group', async () => {
    const limited = await startTestServer({ env: { API_RATE_LIMITS: 'upload=2' } });
    try {
      const u = await aUser(limited.api);
      const jpg = { name: 'a.jpg', bytes: await sampleFile('jpg') };
      const first = await upload(limited.api, u.token, jpg, 'posts');
      expect(first.status).toBe(200);
      expect(first.headers.get('X-RateLimit-Limit')).toBe('2');
      expect((await upload(limited.api, u.token, jpg, 'posts')).status).toBe(200);
      const third = await upload(limited.api, u.token, jpg, 'posts');
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});

/** A web ReadableStream over an async generator of chunks (fetch streams it as a chunked body). */
function ReadableStreamFrom(chunks: AsyncGenerator<Buffer>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      // A view, not a copy: the test's own allocations must not hide the server's.
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
    },
  });
}
