import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aUser, anAlbum } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';
import { sampleFile, upload, uploadedMedia } from '../support/uploads.js';

const t = await startTestServer();
afterAll(() => t.close());

/** Tests that start a server of their own: a fresh MariaDB database is migrated first, slowly on a busy machine. */
const SERVER_START_TIMEOUT_MS = 180_000;

const storedFile = (url: string) => join(t.uploadsPath, url.replace(/^uploads\//, ''));

/** A GET (or another method) sent with exactly this path: no client normalises `..`, `%2e` or `\` away. */
function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Where the app shows a media value (contract §36.6): a path as it is, a bare name by its prefix. */
function displayPath(value: string): string {
  const v = value.replace(/^https?:\/\/[^/]+/, '').replace(/^\/+/, '');
  if (v.includes('/')) return v;
  const folders: [string, string][] = [
    ['group_post_', 'uploads/posts/'],
    ['media_', 'uploads/posts/'],
    ['story_', 'uploads/stories/'],
    ['stories_', 'uploads/stories/'],
    ['album_', 'uploads/albums/'],
    ['messages_', 'uploads/messages/'],
    ['msg_', 'uploads/messages/'],
  ];
  return (folders.find(([prefix]) => v.startsWith(prefix))?.[1] ?? 'uploads/') + v;
}

describe('GET /uploads/... (API_SERVE_UPLOADS, on by default without MAIN_APP_HOST)', () => {
  it("serves an upload's url from the server that answered it, byte for byte, typed by its extension", async () => {
    const u = await aUser(t.api);
    const cases: [string, string, string][] = [
      ['jpg', 'posts', 'image/jpeg'],
      ['png', 'avatar', 'image/png'],
      ['webp', 'stories', 'image/webp'],
      ['mp4', 'album', 'video/mp4'],
      ['webm', 'posts', 'video/webm'],
      ['mov', 'posts', 'video/quicktime'],
      ['m4a', 'messages', 'audio/mp4'],
      ['mp3', 'messages', 'audio/mpeg'],
      ['wav', 'messages', 'audio/wav'],
    ];
    for (const [ext, type, contentType] of cases) {
      const up = await upload(t.api, u.token, { name: `f.${ext}`, bytes: await sampleFile(ext) }, type);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const res = await fetch(`${t.url}/${up.body.url}`);
      expect(res.status, up.body.url).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(readFileSync(storedFile(up.body.url))), ext).toBe(true);
      expect(body.length).toBe(up.body.size);
      expect(res.headers.get('content-type')).toBe(contentType);
      expect(res.headers.get('content-length')).toBe(String(up.body.size));
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBe('inline');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(new Date(res.headers.get('last-modified')!).getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    }
  });

  it('serves every media value the API answers in records: post media, avatar, story, album photo', async () => {
    const u = await aUser(t.api);
    const check = async (value: string, uploadedUrl: string) => {
      const res = await fetch(`${t.url}/${displayPath(value)}`);
      expect(res.status, value).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(storedFile(uploadedUrl))), value).toBe(true);
    };

    const postMedia = await uploadedMedia(t.api, u, 'posts');
    const post = await t.api.post('posts.php', { content: 'look', media: [postMedia.filename] }, { token: u.token });
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    const shown = await t.api.get(`posts.php?id=${post.body.data.id}`, { token: u.token });
    const media = (shown.body.data ?? shown.body.post ?? post.body.data).media;
    await check(Array.isArray(media) ? media[0] : media, postMedia.url);

    const avatar = await uploadedMedia(t.api, u, 'avatar');
    expect((await t.api.put('users.php', { avatar: avatar.url }, { token: u.token })).status).toBe(200);
    const profile = await t.api.get(`users.php?id=${u.id}`, { token: u.token });
    await check(profile.body.avatar, avatar.url);

    const storyMedia = await uploadedMedia(t.api, u, 'stories');
    expect((await t.api.post('stories.php', { media: storyMedia.filename }, { token: u.token })).status).toBe(200);
    const stories = await t.api.get('stories.php', { token: u.token });
    const story = (stories.body.items as { user_id: number; media: string }[]).find((s) => s.user_id === u.id)!;
    await check(story.media, storyMedia.url);

    const album = await anAlbum(t.api, u);
    const photo = await uploadedMedia(t.api, u, 'album');
    const added = await t.api.post('albums.php', { action: 'add_photo', album_id: album.id, photo: photo.filename }, { token: u.token });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await check(added.body.data.path, photo.url);

    // Federation's actor document names the avatar under this server's origin, a bare name included.
    const bare = await uploadedMedia(t.api, u, 'avatar');
    expect((await t.api.put('users.php', { avatar: bare.filename }, { token: u.token })).status).toBe(200);
    const actor = await t.api.get(`/fediverse/actor.php?username=${u.username}`, { headers: { Accept: 'application/activity+json' } });
    expect(actor.status).toBe(200);
    const icon = actor.body.icon as { url: string | { href: string } };
    await check(new URL(typeof icon.url === 'string' ? icon.url : icon.url.href).pathname, bare.url);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const u = await aUser(t.api);
    const up = await uploadedMedia(t.api, u, 'posts', 'mp4');
    const get = await fetch(`${t.url}/${up.url}`);
    await get.arrayBuffer();
    const head = await raw(t.url, `/${up.url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of ['content-type', 'content-length', 'etag', 'last-modified', 'cache-control', 'accept-ranges'])
      expect(head.headers[h], h).toBe(get.headers.get(h));
  });

  it('answers ranges (206), a suffix and an open end, 416 past the end, and the whole file for several ranges or a stale If-Range', async () => {
    const u = await aUser(t.api);
    const up = await uploadedMedia(t.api, u, 'posts', 'mp4');
    const file = readFileSync(storedFile(up.url));
    const size = file.length;
    const etag = (await raw(t.url, `/${up.url}`, { method: 'HEAD' })).headers.etag as string;
    const ranged = async (range: string, extra: Record<string, string> = {}) =>
      raw(t.url, `/${up.url}`, { headers: { Range: range, ...extra } });

    const first = await ranged('bytes=0-9');
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-9/${size}`);
    expect(first.headers['content-length']).toBe('10');
    expect(first.body.equals(file.subarray(0, 10))).toBe(true);

    // Seeking into the middle of a video, as a player does.
    const middle = Math.floor(size / 2);
    const seek = await ranged(`bytes=${middle}-`);
    expect(seek.status).toBe(206);
    expect(seek.headers['content-range']).toBe(`bytes ${middle}-${size - 1}/${size}`);
    expect(seek.body.equals(file.subarray(middle))).toBe(true);

    const suffix = await ranged('bytes=-5');
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(file.subarray(size - 5))).toBe(true);

    const beyondEnd = await ranged(`bytes=${size - 3}-${size + 100}`);
    expect(beyondEnd.status).toBe(206);
    expect(beyondEnd.body.equals(file.subarray(size - 3))).toBe(true);

    const unsatisfiable = await ranged(`bytes=${size}-`);
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${size}`);
    expect(JSON.parse(unsatisfiable.body.toString())).toMatchObject({ success: false, code: 'range_not_satisfiable' });

    for (const whole of [await ranged('bytes=0-1,4-5'), await ranged('bytes=0-9', { 'If-Range': '"stale"' }), await ranged('lines=1-2')]) {
      expect(whole.status).toBe(200);
      expect(whole.body.equals(file)).toBe(true);
    }
    const current = await ranged('bytes=0-9', { 'If-Range': etag });
    expect(current.status).toBe(206);
  });

  it('answers 304 to a matching If-None-Match or an If-Modified-Since not older than the file', async () => {
    const u = await aUser(t.api);
    const up = await uploadedMedia(t.api, u, 'posts');
    const first = await raw(t.url, `/${up.url}`);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;

    const revalidated = await raw(t.url, `/${up.url}`, { headers: { 'If-None-Match': `"other", ${etag}` } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await raw(t.url, `/${up.url}`, { headers: { 'If-None-Match': `W/${etag}` } })).status).toBe(304);
    expect((await raw(t.url, `/${up.url}`, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await raw(t.url, `/${up.url}`, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    expect(
      (await raw(t.url, `/${up.url}`, { headers: { 'If-Modified-Since': new Date(Date.parse(lastModified) - 60_000).toUTCString() } }))
        .status,
    ).toBe(200);
    // If-None-Match decides when both are sent.
    expect((await raw(t.url, `/${up.url}`, { headers: { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified } })).status).toBe(
      200,
    );
  });

  it('serves nothing but stored uploads: no listing, no way out of the uploads directory, no other file', async () => {
    const u = await aUser(t.api);
    const up = await uploadedMedia(t.api, u, 'posts');
    const name = up.filename;
    // Files that exist but are not uploads: beside the uploads directory, inside it under other names,
    // and a link of upload form that leads outside.
    const outside = join(dirname(t.uploadsPath), `secret-${name}`);
    writeFileSync(outside, 'outside the uploads directory');
    writeFileSync(join(t.uploadsPath, 'posts', 'notes.txt'), 'not an upload');
    writeFileSync(join(t.uploadsPath, 'posts', `.${name}.part`), 'half written');
    mkdirSync(join(t.uploadsPath, 'posts', 'media_0123456789abcdef0123456789abcdef.jpg'));
    symlinkSync('/etc/passwd', join(t.uploadsPath, 'posts', 'media_fedcba9876543210fedcba9876543210.jpg'));
    symlinkSync(outside, join(t.uploadsPath, 'avatar_fedcba9876543210fedcba9876543210.jpg'));

    const refused = [
      '/uploads',
      '/uploads/',
      '/uploads/posts',
      '/uploads/posts/',
      '/uploads/posts/notes.txt',
      `/uploads/posts/.${name}.part`,
      '/uploads/posts/media_0123456789abcdef0123456789abcdef.jpg',
      '/uploads/posts/media_fedcba9876543210fedcba9876543210.jpg',
      '/uploads/avatar_fedcba9876543210fedcba9876543210.jpg',
      // The right name in another type's folder, or with a query-less trailing slash.
      `/uploads/stories/${name}`,
      `/uploads/${name}`,
      `/uploads/posts/${name}/`,
      // Ways out: plain, encoded, doubly encoded, with backslashes, mixed.
      `/uploads/../secret-${name}`,
      `/uploads/posts/../../secret-${name}`,
      `/uploads/%2e%2e/secret-${name}`,
      `/uploads/posts/%2e%2e%2f%2e%2e%2fsecret-${name}`,
      `/uploads/posts/..%2f..%2fsecret-${name}`,
      `/uploads/%252e%252e/secret-${name}`,
      `/uploads/posts/%252e%252e%252f${name}`,
      `/uploads/posts/..\\..\\secret-${name}`,
      `/uploads/posts/..%5c..%5csecret-${name}`,
      `/uploads/posts%2f${name}`,
      '/uploads/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      `/uploads/posts/${name}%00.jpg`,
    ];
    for (const path of refused) {
      const res = await raw(t.url, path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).not.toMatch(/root:|outside the uploads|not an upload|half written/);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
    }
    // The genuine file is still there, by its own path.
    expect((await raw(t.url, `/${up.url}`)).status).toBe(200);
  });

  it('takes only GET and HEAD', async () => {
    const u = await aUser(t.api);
    const up = await uploadedMedia(t.api, u, 'posts');
    const before = readFileSync(storedFile(up.url));
    const del = await raw(t.url, `/${up.url}`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    // A body is refused before it is read (the mount reads none).
    const put = await fetch(`${t.url}/${up.url}`, { method: 'PUT', body: 'overwrite' });
    expect(put.status).toBe(413);
    expect(readFileSync(storedFile(up.url)).equals(before)).toBe(true);
  });
});

describe('GET /uploads/... switched off, and its rate limit', () => {
  it(
    'is not served with API_SERVE_UPLOADS=false, nor by default when MAIN_APP_HOST serves them',
    async () => {
      const envs: Record<string, string>[] = [{ API_SERVE_UPLOADS: 'false' }, { MAIN_APP_HOST: 'https://social.example.org' }];
      for (const env of envs) {
        const s = await startTestServer({ env });
        try {
          const u = await aUser(s.api);
          const up = await uploadedMedia(s.api, u, 'posts');
          const res = await raw(s.url, `/${up.url}`);
          expect(res.status, JSON.stringify(env)).toBe(404);
          expect(JSON.parse(res.body.toString())).toMatchObject({ success: false, code: 'unknown_endpoint' });
        } finally {
          await s.close();
        }
      }
    },
    SERVER_START_TIMEOUT_MS,
  );

  it(
    'counts in the reads group',
    async () => {
      const s = await startTestServer({ env: { API_RATE_LIMITS: 'reads=3' } });
      try {
        const u = await aUser(s.api);
        const up = await uploadedMedia(s.api, u, 'posts');
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await raw(s.url, `/${up.url}`));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
        expect(answers[0].headers['x-ratelimit-limit']).toBe('3');
      } finally {
        await s.close();
      }
    },
    SERVER_START_TIMEOUT_MS,
  );
});
