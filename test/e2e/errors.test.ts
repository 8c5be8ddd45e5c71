import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Errors a person understands (issue 32): one plain-words sentence per field that names it, a body of
 * a type Plaza does not read refused with 415 naming the types it reads, and WWW-Authenticate on 401.
 */
let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = (await aUser(t.api)).token;
});
afterAll(() => t.close());

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, headers: res.headers, body: await json(res) };
}

/** The error body of an answer. */
async function json(res: Response): Promise<Record<string, any>> {
  return (await res.json()) as Record<string, any>;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('validation errors in plain words', () => {
  it('says which field is required and what a field must be, once per field', async () => {
    const res = await call('POST', 'comments.php', JSON.stringify({ post_id: 'abc' }), JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_input' });
    expect(res.body.details).toEqual([
      { field: 'post_id', problem: 'post_id must be a positive whole number' },
      { field: 'content', problem: 'content is required' },
    ]);
    expect(res.body.message).toBe('post_id must be a positive whole number; content is required');
    expect(res.body.error).toBe(res.body.message);
  });

  it('names an enum’s values, a page size’s bounds and a query field', async () => {
    const reaction = await call('POST', 'reactions.php', JSON.stringify({ post_id: 1, reaction_type: 'meh' }), JSON_TYPE);
    expect(reaction.status).toBe(400);
    expect(reaction.body.details).toEqual([
      { field: 'reaction_type', problem: 'reaction_type must be one of like, love, haha, wow, sad, angry' },
    ]);
    const page = await call('GET', 'posts.php?feed_type=global&per_page=500');
    expect(page.status).toBe(400);
    expect(page.body.message).toBe('per_page must be a whole number from 1 to 100');
    const user = await call('GET', 'users.php?id=-3');
    expect(user.body.details).toEqual([{ field: 'id', problem: 'id must be a positive whole number' }]);
  });

  it('reports an empty media name as a problem with media, not with content', async () => {
    const res = await call('POST', 'posts.php', JSON.stringify({ media: [''] }), JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.details).toEqual([{ field: 'media[0]', problem: 'media[0] must name a file you uploaded' }]);
  });
});

describe('bodies Plaza does not read', () => {
  it('answers 415 naming the types it reads, for text/plain and for a body without a type', async () => {
    const plain = await call('POST', 'posts.php', 'hello world', { 'Content-Type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ success: false, code: 'unsupported_media_type' });
    expect(plain.body.message).toBe(
      'posts.php reads a body sent as application/json or application/x-www-form-urlencoded; this one is sent as text/plain',
    );
    const bare = await fetch(`${t.url}/api/v1/posts.php`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: new Uint8Array(Buffer.from('{"content":"hi"}')),
    });
    expect(bare.status).toBe(415);
    expect((await json(bare)).message).toMatch(/sent without a Content-Type$/);
    // The same content as JSON is read and published.
    expect((await call('POST', 'posts.php', JSON.stringify({ content: 'hello world' }), JSON_TYPE)).status).toBe(200);
  });

  it('takes multipart/form-data only where the operation takes files', async () => {
    const form = new FormData();
    form.set('content', 'hello');
    const posts = await fetch(`${t.url}/api/v1/posts.php`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(posts.status).toBe(415);
    expect((await json(posts)).message).toMatch(
      /^posts\.php reads a body sent as application\/json or application\/x-www-form-urlencoded;/,
    );
    const upload = await call('POST', 'upload.php', 'a file', { 'Content-Type': 'text/plain' });
    expect(upload.status).toBe(415);
    expect(upload.body.message).toMatch(/application\/x-www-form-urlencoded or multipart\/form-data; this one is sent as text\/plain$/);
  });
});

describe('401 answers', () => {
  it('carry WWW-Authenticate: Bearer, with error="invalid_token" when the token sent was refused', async () => {
    const none = await fetch(`${t.url}/api/v1/users.php`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const refused = await fetch(`${t.url}/api/v1/users.php`, { headers: { Authorization: 'Bearer not-a-token' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await json(refused)).code).toBe('invalid_token');
    const form = new FormData();
    form.set('type', 'posts');
    const upload = await fetch(`${t.url}/api/v1/upload.php`, { method: 'POST', body: form });
    expect(upload.status).toBe(401);
    expect(upload.headers.get('www-authenticate')).toBe('Bearer');
  });
});
