/**
 * A client program written against the TypeScript types that openapi-typescript generates from the
 * served /api/v1/openapi.json (`./plaza-api.js`, written next to a copy of this file by
 * test/e2e/openapi-client.test.ts, which typechecks both with tsc and then runs `twelveCalls`). Not
 * part of the repository's own typecheck (`.mts`): its types exist only once the document is generated.
 */
import createClient from 'openapi-fetch';
import type { paths } from './plaza-api.js';

export interface Outcome {
  status: number;
  body: unknown;
}

/** Twelve operations of six scripts, each through the generated client, by its path key. */
export async function twelveCalls(baseUrl: string, login: { username: string; password: string }): Promise<Record<string, Outcome>> {
  const anonymous = createClient<paths>({ baseUrl });
  const out: Record<string, Outcome> = {};
  const keep = (name: string, r: { response: Response; data?: unknown; error?: unknown }) => {
    out[name] = { status: r.response.status, body: r.data ?? r.error };
  };

  const signedIn = await anonymous.POST('/auth.php/action/login', { body: { username: login.username, password: login.password } });
  keep('auth.postLogin', signedIn);
  const token = signedIn.data?.token;
  if (typeof token !== 'string') return out;
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  const me = await client.GET('/users.php');
  keep('users.get', me);

  const post = await client.POST('/posts.php', { body: { content: 'Hello from a generated client' } });
  keep('posts.post', post);
  const postId = post.data?.post_id;
  if (postId === undefined) return out;
  keep('posts.getWithId', await client.GET('/posts.php/id/{id}', { params: { path: { id: postId } } }));
  keep('posts.get', await client.GET('/posts.php', { params: { query: { feed_type: 'global', per_page: 5 } } }));

  keep('comments.post', await client.POST('/comments.php', { body: { post_id: postId, content: 'A comment through the client' } }));
  keep('comments.get', await client.GET('/comments.php', { params: { query: { post_id: postId } } }));

  const group = await client.POST('/groups.php/action/create', { body: { name: 'Generated client group', privacy: 'public' } });
  keep('groups.postCreate', group);
  const groupId = group.data?.group_id;
  if (groupId !== undefined) keep('groups.getWithId', await client.GET('/groups.php/id/{id}', { params: { path: { id: groupId } } }));

  const page = await client.POST('/pages.php/action/create', { body: { name: 'Generated client page' } });
  keep('pages.postCreate', page);
  const pageId = page.data?.page_id;
  if (pageId === undefined) return out;
  keep('pages.postCreatePost', await client.POST('/pages.php/action/create_post', { body: { page_id: pageId, content: 'On the page' } }));
  keep('pages.getByIdPosts', await client.GET('/pages.php/path/{id}/posts', { params: { path: { id: pageId } } }));
  return out;
}
