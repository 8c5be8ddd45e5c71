import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { mediaSample, PRIVATE_NEEDLES, probe, testFfmpeg } from '../support/media-samples.js';
import { startTestServer } from '../support/server.js';
import { upload } from '../support/uploads.js';

const t = await startTestServer();
afterAll(() => t.close());

/** Tests that start a server of their own: a fresh MariaDB database is migrated first, slowly on a busy machine. */
const SERVER_START_TIMEOUT_MS = 180_000;

/** Every file under a directory, relative to it (hidden `.part` files included). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

const storedFile = (uploadsPath: string, url: string) => join(uploadsPath, url.replace(/^uploads\//, ''));
const needlesIn = (bytes: Buffer) => PRIVATE_NEEDLES.filter((n) => bytes.includes(Buffer.from(n, 'latin1')));

describe('upload.php: videos and audio lose their metadata (remuxed by ffmpeg)', () => {
  const kinds: [ext: string, type: string, mime: string][] = [
    ['mp4', 'posts', 'video/mp4'],
    ['mov', 'album', 'video/quicktime'],
    ['webm', 'stories', 'video/webm'],
    ['m4a', 'messages', 'audio/x-m4a'],
    ['mp3', 'messages', 'audio/mpeg'],
    ['wav', 'messages', 'audio/wav'],
  ];

  it.each(kinds)('stores a .%s without its location, device or title tags, still playable, same streams', async (ext, type, mime) => {
    const u = await aUser(t.api);
    const sent = await mediaSample(ext, { tagged: true });
    const before = await probe(sent, ext);
    // The test's file does carry what must go (in its bytes, and as ffmpeg reads it).
    expect(needlesIn(sent).length, `tags in the sent .${ext}`).toBeGreaterThan(0);
    expect(before.info).toMatch(/Secret|48\.8584/);
    expect(before.decodes).toBe(true);

    const res = await upload(t.api, u.token, { name: `VID_0001.${ext}`, bytes: sent }, type);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, mime_type: mime });
    expect(res.body.url.endsWith(`.${ext}`)).toBe(true);
    const stored = readFileSync(storedFile(t.uploadsPath, res.body.url));
    expect(stored.length).toBe(res.body.size);
    expect(needlesIn(stored), `tags left in the stored .${ext}`).toEqual([]);

    const after = await probe(stored, ext);
    expect(after.info).not.toMatch(/Secret|48\.8584|location|com\.apple|creation_time|make|model|title|artist|comment/i);
    expect(after.decodes, after.info).toBe(true);
    // Remuxed, not re-encoded: the same streams with the same codecs.
    expect(after.streams).toEqual(before.streams);
    expect(after.streams.length).toBeGreaterThan(0);
  });

  it("keeps a portrait video's rotation (it is how the picture is shown, not where it was taken)", async () => {
    const u = await aUser(t.api);
    const sent = await mediaSample('mp4', { tagged: true, rotate: 90 });
    const before = await probe(sent, 'mp4');
    expect(before.rotation).not.toBeNull();
    const res = await upload(t.api, u.token, { name: 'portrait.mp4', bytes: sent }, 'posts');
    expect(res.status).toBe(200);
    const after = await probe(readFileSync(storedFile(t.uploadsPath, res.body.url)), 'mp4');
    expect(after.rotation).toBe(before.rotation);
    expect(needlesIn(readFileSync(storedFile(t.uploadsPath, res.body.url)))).toEqual([]);
  });

  it('refuses with 415 what cannot be remuxed (a bare header, a cut file, garbage after a WebM header), storing nothing', async () => {
    const u = await aUser(t.api);
    const before = filesUnder(t.uploadsPath);
    const mp4 = await mediaSample('mp4');
    const ftyp = mp4.subarray(0, mp4.readUInt32BE(0));
    const webm = await mediaSample('webm');
    const broken: [string, Buffer, string][] = [
      // What file-type takes for an MP4 (an ftyp box), and nothing playable after it.
      ['header.mp4', Buffer.concat([ftyp, Buffer.alloc(4096)]), 'posts'],
      // The first part of a real MP4 whose index (moov) was written at its end.
      ['cut.mp4', mp4.subarray(0, Math.floor(mp4.length / 2)), 'posts'],
      ['noise.webm', Buffer.concat([webm.subarray(0, 40), Buffer.alloc(4096, 0x5a)]), 'stories'],
    ];
    for (const [name, bytes, type] of broken) {
      const res = await upload(t.api, u.token, { name, bytes }, type);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(415);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_media' });
    }
    expect(filesUnder(t.uploadsPath)).toEqual(before);
    expect(readdirSync(t.uploadTmpDir)).toEqual([]);
  });
});

describe('upload.php: ffmpeg runs with a time limit, a bounded number at once', () => {
  // A stand-in for ffmpeg: it sleeps when told to, and otherwise records overlapping runs before
  // handing over to the real binary.
  const dir = mkdtempSync('/tmp/plaza-ffmpeg-wrapper-');
  const wrapper = join(dir, 'ffmpeg');
  writeFileSync(
    wrapper,
    `#!/bin/sh
if [ -f ${dir}/sleep ]; then exec sleep 30; fi
mkdir ${dir}/running 2>/dev/null || echo overlap >> ${dir}/overlaps
sleep 0.3
${testFfmpeg()} "$@"
rc=$?
rmdir ${dir}/running
exit $rc
`,
  );
  chmodSync(wrapper, 0o755);
  let s: Awaited<ReturnType<typeof startTestServer>>;
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'remuxes one at a time with API_MEDIA_REMUX_CONCURRENCY=1, and refuses a run past API_MEDIA_REMUX_TIMEOUT_S (415), storing nothing',
    async () => {
      s = await startTestServer({ env: { API_FFMPEG_PATH: wrapper, API_MEDIA_REMUX_CONCURRENCY: '1', API_MEDIA_REMUX_TIMEOUT_S: '2' } });
      const u = await aUser(s.api);
      const bytes = await mediaSample('m4a', { tagged: true });
      const answers = await Promise.all(Array.from({ length: 4 }, () => upload(s.api, u.token, { name: 'voice.m4a', bytes }, 'messages')));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(existsSync(join(dir, 'overlaps'))).toBe(false);

      writeFileSync(join(dir, 'sleep'), '');
      const before = filesUnder(s.uploadsPath);
      const started = Date.now();
      const slow = await upload(s.api, u.token, { name: 'voice.m4a', bytes }, 'messages');
      expect(slow.status).toBe(415);
      expect(slow.body).toMatchObject({ success: false, code: 'invalid_media' });
      expect(slow.body.message).toMatch(/within 2 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(filesUnder(s.uploadsPath)).toEqual(before);
    },
    SERVER_START_TIMEOUT_MS,
  );
});

describe('upload.php without a usable ffmpeg', () => {
  it(
    'answers 503 media_processing_unavailable to videos and audio, storing nothing, and still takes images',
    async () => {
      const s = await startTestServer({ env: { API_FFMPEG_PATH: '/nonexistent/ffmpeg' } });
      try {
        const u = await aUser(s.api);
        for (const [ext, type] of [
          ['mp4', 'posts'],
          ['mp3', 'messages'],
        ]) {
          const res = await upload(s.api, u.token, { name: `clip.${ext}`, bytes: await mediaSample(ext, { tagged: true }) }, type);
          expect(res.status).toBe(503);
          expect(res.body).toMatchObject({ success: false, code: 'media_processing_unavailable' });
        }
        expect(filesUnder(s.uploadsPath)).toEqual([]);
        const photo = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123' } })
          .jpeg()
          .toBuffer();
        expect((await upload(s.api, u.token, { name: 'a.jpg', bytes: photo }, 'posts')).status).toBe(200);
      } finally {
        await s.close();
      }
    },
    SERVER_START_TIMEOUT_MS,
  );
});

describe('upload.php: photos with recoverable decoder warnings', () => {
  /** A noisy photo (large enough that its scan data can be cut), with GPS and device in its EXIF. */
  async function photo(): Promise<Buffer> {
    const raw = Buffer.alloc(96 * 64 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
    return sharp(raw, { raw: { width: 96, height: 64, channels: 3 } })
      .jpeg()
      .withExifMerge({
        IFD0: { Make: 'PlazaPhone', Model: 'Leaky 2' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2952/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 720/100' },
      })
      .toBuffer();
  }

  it('accepts a JPEG with extraneous bytes before a marker, re-encoded without its metadata', async () => {
    const u = await aUser(t.api);
    const jpeg = await photo();
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    // Bytes between two segments: libjpeg warns "3 extraneous bytes before marker 0xda" and decodes on.
    const camera = Buffer.concat([jpeg.subarray(0, sos), Buffer.from([0x12, 0x34, 0x56]), jpeg.subarray(sos)]);
    await expect(sharp(camera).toBuffer()).rejects.toThrow(/extraneous bytes before marker/);

    const res = await upload(t.api, u.token, { name: 'IMG_3001.jpg', bytes: camera }, 'posts');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = readFileSync(storedFile(t.uploadsPath, res.body.url));
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 96, 64]);
    expect(meta.exif).toBeUndefined();
    expect(stored.includes('PlazaPhone')).toBe(false);
    // Strictly decodable now: the warning was not copied into what is served.
    await expect(sharp(stored, { failOn: 'warning' }).toBuffer()).resolves.toBeInstanceOf(Buffer);
  });

  it('still refuses (415 invalid_image) a JPEG cut in its scan data and one that is garbage after its header', async () => {
    const u = await aUser(t.api);
    const before = filesUnder(t.uploadsPath);
    const jpeg = await photo();
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.8));
    const garbage = Buffer.concat([jpeg.subarray(0, 20), Buffer.alloc(200, 0x41)]);
    for (const [name, bytes] of [
      ['cut.jpg', cut],
      ['garbage.jpg', garbage],
    ] as const) {
      const res = await upload(t.api, u.token, { name, bytes }, 'posts');
      expect(res.status, name).toBe(415);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_image' });
    }
    expect(filesUnder(t.uploadsPath)).toEqual(before);
  });
});
