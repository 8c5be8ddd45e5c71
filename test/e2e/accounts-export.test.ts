import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { aComment, aFollow, aFriendship, aMessage, aMessageGroup, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { recordUploaded } from '../support/uploads.js';

let t: TestServer;
let uploads: string;
const IMAGE = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
beforeAll(async () => {
  uploads = await mkdtemp(join(tmpdir(), 'plaza-export-'));
  await mkdir(join(uploads, 'posts'), { recursive: true });
  for (const n of [1, 2]) await writeFile(join(uploads, 'posts', `media_export${n}.png`), IMAGE);
  t = await startTestServer({ env: { API_UPLOADS_PATH: uploads } });
});
afterAll(() => t.close());

async function download(path: string, token?: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${t.url}/api/v1/${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A user with something in every section, and a stranger whose data must not appear; `n` numbers the user's upload (each is one account's). */
async function busyUser(n: 1 | 2): Promise<{ me: TestUser; other: TestUser; stranger: TestUser; postId: number }> {
  const [me, other, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
  await recordUploaded(t, `media_export${n}.png`, me);
  const post = await aPost(t.api, me, { content: 'my #plaza post', media: [`media_export${n}.png`] });
  await aPost(t.api, stranger, { content: 'STRANGER SECRET POST' });
  const theirs = await aPost(t.api, other, { content: 'other post' });
  await aComment(t.api, me, theirs, { content: 'my comment' });
  await aComment(t.api, stranger, theirs, { content: 'STRANGER COMMENT' });
  await t.api.post('reactions.php', { post_id: theirs.id, reaction_type: 'love' }, { token: me.token });
  await t.api.post('bookmarks.php', { post_id: theirs.id }, { token: me.token });
  await aFollow(t.api, me, other);
  await aFollow(t.api, other, me);
  await aFriendship(t.api, me, other);
  await aMessage(t.api, me, other, { content: 'my message' });
  await aMessage(t.api, other, stranger, { content: 'NOT MY MESSAGE' });
  await aMessageGroup(t.api, me, [other], { name: 'Export group' });
  return { me, other, stranger, postId: post.id };
}

describe('export.php', () => {
  it('downloads the user’s data as JSON, and nobody else’s', async () => {
    const { me, other, postId } = await busyUser(1);
    const res = await download('export.php', me.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="plaza-export-.*\.json"$/);
    const text = res.body.toString('utf8');
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: me.id, username: me.username, email: me.email });
    expect(text).not.toMatch(/password_hash|totp_secret|token_hash/);
    expect(data.preferences).toMatchObject({ notifications_push: true });
    expect(data.posts.map((p: { id: number }) => p.id)).toEqual([postId]);
    expect(data.posts[0]).toMatchObject({ content: 'my #plaza post', media: ['media_export1.png'], tags: ['plaza'] });
    expect(data.comments.map((c: { content: string }) => c.content)).toEqual(['my comment']);
    expect(data.reactions).toEqual([expect.objectContaining({ reaction_type: 'love' })]);
    expect(data.bookmarks).toHaveLength(1);
    expect(data.following.map((f: { user_id: number }) => f.user_id)).toEqual([other.id]);
    expect(data.followers.map((f: { user_id: number }) => f.user_id)).toEqual([other.id]);
    expect(data.friends).toEqual([expect.objectContaining({ user_id: other.id, username: other.username })]);
    expect(data.messages).toEqual([expect.objectContaining({ content: 'my message', direction: 'sent' })]);
    expect(data.message_group_memberships).toEqual([expect.objectContaining({ name: 'Export group', role: 'admin' })]);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(Object.keys(data.sessions[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'revoked_at']);
    expect(data.media).toEqual([{ path: 'uploads/posts/media_export1.png', source: `post:${postId}` }]);
    expect(text).not.toMatch(/STRANGER|NOT MY MESSAGE/);
  });

  it('accepts the token in the query string, as the app opens it in a browser', async () => {
    const u = await aUser(t.api);
    const res = await download(`export.php?token=${encodeURIComponent(u.token)}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString('utf8')).profile.id).toBe(u.id);
    const bad = await download('export.php?token=not-a-token');
    expect(bad.status).toBe(401);
    expect((await download('export.php')).status).toBe(401);
    expect((await download('export.php?format=tar', u.token)).status).toBe(400);
  });

  it('with format=zip, streams an archive with the JSON, the media and a valid ActivityStreams outbox', async () => {
    const { me, postId } = await busyUser(2);
    const res = await download('export.php?format=zip', me.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/\.zip"$/);
    const files = await unzip(res.body);
    expect([...files.keys()].sort()).toEqual([
      'actor.json',
      'media_attachments/files/posts/media_export2.png',
      'outbox.json',
      'plaza-export.json',
      'plaza-manifest.json',
    ]);
    expect(files.get('media_attachments/files/posts/media_export2.png')).toEqual(IMAGE);
    expect(JSON.parse(files.get('plaza-export.json')!.toString()).posts.map((p: { id: number }) => p.id)).toEqual([postId]);
    const actor = JSON.parse(files.get('actor.json')!.toString());
    expect(actor).toMatchObject({ type: 'Person', preferredUsername: me.username, outbox: 'outbox.json' });
    expect(actor['@context']).toContain('https://www.w3.org/ns/activitystreams');
    const outbox = JSON.parse(files.get('outbox.json')!.toString());
    expect(outbox).toMatchObject({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'OrderedCollection', totalItems: 1 });
    const [create] = outbox.orderedItems;
    expect(create).toMatchObject({ type: 'Create', actor: actor.id, to: ['https://www.w3.org/ns/activitystreams#Public'] });
    expect(create.object).toMatchObject({
      type: 'Note',
      attributedTo: actor.id,
      content: '<p>my #plaza post</p>',
      published: expect.stringMatching(/Z$/),
    });
    expect(create.object.attachment).toEqual([
      { type: 'Document', mediaType: 'image/png', url: '/media_attachments/files/posts/media_export2.png', name: null },
    ]);
    expect(create.object.tag).toEqual([expect.objectContaining({ type: 'Hashtag', name: '#plaza' })]);
    expect(JSON.parse(files.get('plaza-manifest.json')!.toString())).toEqual({ media_files: 1, missing_media: [] });
  });

  it('keeps memory flat for a large account', async () => {
    const u = await aUser(t.api);
    // 6,000 posts written straight to the database (the API would take minutes), each ~1 KB.
    const text = 'x'.repeat(1000);
    for (let i = 0; i < 6; i++) {
      const rows = Array.from({ length: 1000 }, () => ({
        user_id: u.id,
        content: text,
        media: '[]',
        media_type: null,
        tags: '[]',
        created_at: '2026-01-01 00:00:00',
      }));
      for (let j = 0; j < rows.length; j += 250)
        await t.database.db
          .insertInto('posts')
          .values(rows.slice(j, j + 250))
          .execute();
    }
    // What the heap retains (after a collection), sampled while the download runs: garbage does not count.
    v8.setFlagsFromString('--expose_gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    const res = await fetch(`${t.url}/api/v1/export.php`, { headers: { Authorization: `Bearer ${u.token}` } });
    const reader = res.body!.getReader();
    let bytes = 0;
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (++chunks % 20 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
    }
    expect(bytes).toBeGreaterThan(6_000_000);
    // The server and the client share this process: holding the document whole would retain at least
    // its size; streaming retains a few batches of rows.
    expect(peak).toBeLessThan(bytes / 3);
    console.log(`export of ${Math.round(bytes / 1024)} KiB: the heap retained at most ${Math.round(peak / 1024)} KiB more while streaming`);
  });
});

describe('export.php rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { API_RATE_LIMITS: 'export=5' } });
  });
  afterAll(() => limited.close());

  it('allows 5 exports an hour', async () => {
    const u = await aUser(limited.api);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await fetch(`${limited.url}/api/v1/export.php?token=${u.token}`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('5');
    for (const a of answers) await a.arrayBuffer();
  });
});
