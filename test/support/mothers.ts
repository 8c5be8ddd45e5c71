import type { ApiClient, ApiResponse } from './client.js';

/**
 * Object mothers for the end-to-end suites: each builds one thing the way the app does, over HTTP,
 * returns its ids, and throws a readable error naming the request when the server refuses. Tests that
 * probe an endpoint's answers call the API themselves; these are for the setup around them.
 */

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Anyone with a token: a `TestUser`, or just the token for tests that only have one. */
type Acting = Pick<TestUser, 'token'>;
type WithId = Pick<TestUser, 'id'>;

let seq = 0;

/** The request and the server's answer, for the error of a mother whose setup was refused. */
function refused(what: string, method: string, url: string, res: ApiResponse): Error {
  const b = res.body as { code?: string; message?: string; details?: unknown } | string | null;
  const why =
    b && typeof b === 'object'
      ? `${b.code ?? '?'}: ${b.message ?? ''}${b.details ? ` ${JSON.stringify(b.details)}` : ''}`
      : JSON.stringify(b);
  return new Error(`${what}: ${method} ${url} answered ${res.status} (${why})`);
}

/** Sends a request that must succeed and answer `idKey` as a number; returns the body. */
async function expectCreated(
  api: ApiClient,
  what: string,
  method: 'POST' | 'PUT',
  url: string,
  body: unknown,
  who: Acting | undefined,
  idKey?: string,
): Promise<Record<string, any>> {
  const res = await api.request(method, url, body, who ? { token: who.token } : {});
  if (res.status !== 200 || res.body?.success !== true) throw refused(what, method, url, res);
  if (idKey && typeof res.body[idKey] !== 'number') {
    throw new Error(`${what}: ${method} ${url} answered 200 without a numeric ${idKey}: ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/** Registers a fresh account over HTTP and logs it in. */
export async function aUser(
  api: ApiClient,
  overrides: Partial<{ username: string; email: string; password: string }> = {},
): Promise<TestUser> {
  seq += 1;
  const username = overrides.username ?? `u${seq}_${Math.random().toString(36).slice(2, 8)}`;
  const email = overrides.email ?? `${username}@example.test`;
  const password = overrides.password ?? 'correct horse battery';
  const reg = await api.post('auth.php?action=register', { username, email, password });
  if (reg.status !== 200 || reg.body?.success !== true) throw refused(`aUser(${username})`, 'POST', 'auth.php?action=register', reg);
  const login = await api.post('auth.php', { username, password });
  if (!login.body?.token) throw refused(`aUser(${username}) login`, 'POST', 'auth.php', login);
  return { id: login.body.user_id, username, email, password, token: login.body.token };
}

/** `follower` follows `followed` (follows.php). */
export async function aFollow(api: ApiClient, follower: Acting, followed: WithId): Promise<void> {
  await expectCreated(api, 'aFollow', 'POST', 'follows.php', { user_id: followed.id }, follower);
}

/** A pending friend request from `from` to `to` (friends.php send); returns its id. */
export async function aFriendRequest(api: ApiClient, from: Acting, to: WithId): Promise<{ requestId: number }> {
  const body = await expectCreated(api, 'aFriendRequest', 'POST', 'friends.php', { action: 'send', user_id: to.id }, from, 'request_id');
  return { requestId: body.request_id };
}

/** Makes `a` and `b` friends: `a` asks, `b` accepts. */
export async function aFriendship(api: ApiClient, a: Acting, b: Acting & WithId): Promise<{ requestId: number }> {
  const { requestId } = await aFriendRequest(api, a, b);
  await expectCreated(api, 'aFriendship accept', 'POST', 'friends.php', { action: 'accept', request_id: requestId }, b);
  return { requestId };
}

export interface PostOverrides {
  content?: string;
  media?: string[];
  media_type?: string;
  tags?: string[];
  [field: string]: unknown;
}

export interface TestPost {
  id: number;
  authorId: number | undefined;
}

/** A post by `author` (posts.php); `content` defaults to "a post". Pass any other body field in `overrides`. */
export async function aPost(api: ApiClient, author: Acting & Partial<WithId>, overrides: PostOverrides = {}): Promise<TestPost> {
  const body = await expectCreated(api, 'aPost', 'POST', 'posts.php', { content: 'a post', ...overrides }, author, 'post_id');
  return { id: body.post_id, authorId: author.id };
}

export interface CommentOverrides {
  content?: string;
  parent_id?: number;
  [field: string]: unknown;
}

export interface TestComment {
  id: number;
  postId: number;
}

/** A comment by `author` on `post` (a post id or a `TestPost`); `parent_id` makes it a reply. */
export async function aComment(
  api: ApiClient,
  author: Acting,
  post: number | { id: number },
  overrides: CommentOverrides = {},
): Promise<TestComment> {
  const postId = typeof post === 'number' ? post : post.id;
  const body = await expectCreated(
    api,
    'aComment',
    'POST',
    'comments.php',
    { post_id: postId, content: 'a comment', ...overrides },
    author,
    'comment_id',
  );
  return { id: body.comment_id, postId };
}

export interface MessageOverrides {
  content?: string;
  media?: string | null;
  media_type?: string | null;
  parent_id?: number;
  [field: string]: unknown;
}

export interface TestMessage {
  id: number;
  senderId: number | undefined;
  recipientId: number;
}

/** A private message from `from` to `to` (messages.php); `content` defaults to "hello". */
export async function aMessage(
  api: ApiClient,
  from: Acting & Partial<WithId>,
  to: WithId,
  overrides: MessageOverrides = {},
): Promise<TestMessage> {
  const body = await expectCreated(
    api,
    'aMessage',
    'POST',
    'messages.php',
    { user_id: to.id, content: 'hello', media: null, ...overrides },
    from,
    'message_id',
  );
  return { id: body.message_id, senderId: from.id, recipientId: to.id };
}

export interface TestMessageGroup {
  id: number;
  adminId: number | undefined;
  memberIds: number[];
}

/** A messaging group created by `admin` with `members` (message_groups.php); named "Comrades" unless overridden. */
export async function aMessageGroup(
  api: ApiClient,
  admin: Acting & Partial<WithId>,
  members: WithId[] = [],
  overrides: { name?: string; avatar?: string; [field: string]: unknown } = {},
): Promise<TestMessageGroup> {
  const memberIds = members.map((m) => m.id);
  const body = await expectCreated(
    api,
    'aMessageGroup',
    'POST',
    'message_groups.php',
    { name: 'Comrades', avatar: 'default.svg', member_ids: memberIds, ...overrides },
    admin,
    'group_id',
  );
  return { id: body.group_id, adminId: admin.id, memberIds };
}

/** A message by a member in a messaging group (`?path=:id/messages`). */
export async function aGroupMessage(
  api: ApiClient,
  author: Acting,
  group: number | { id: number },
  overrides: MessageOverrides = {},
): Promise<{ id: number; groupId: number }> {
  const groupId = typeof group === 'number' ? group : group.id;
  const url = `message_groups.php?path=${groupId}/messages`;
  const body = await expectCreated(
    api,
    'aGroupMessage',
    'POST',
    url,
    { content: 'hello', media: null, ...overrides },
    author,
    'message_id',
  );
  return { id: body.message_id, groupId };
}

/** The header calls.php requires (DESIGN.md §2), with the default marker. */
export const MOBILE_APP = { 'X-Flutter-App': 'militant-flutter-v1' };

/** A ringing call from `caller` to a user (`recipient_id`) or a messaging group (`group_id`); returns its id. */
export async function aCall(
  api: ApiClient,
  caller: Acting,
  to: { recipient_id: number } | { group_id: number },
  overrides: { call_type?: 'audio' | 'video'; offer?: string } = {},
): Promise<{ id: number }> {
  const body = { call_type: 'audio', offer: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n', ...to, ...overrides };
  const res = await api.post('calls.php?action=initiate', body, { token: caller.token, headers: MOBILE_APP });
  if (res.status !== 200 || typeof res.body?.data?.call_id !== 'string') throw refused('aCall', 'POST', 'calls.php?action=initiate', res);
  return { id: Number(res.body.data.call_id) };
}

/** A live started by `creator` (lives.php); returns its id. */
export async function aLive(
  api: ApiClient,
  creator: Acting,
  overrides: { title?: string; is_public?: boolean; max_guests?: number } = {},
): Promise<{ id: number }> {
  const body = await expectCreated(
    api,
    'aLive',
    'POST',
    'lives.php',
    { title: 'On air', description: '', is_public: true, max_guests: 8, ...overrides },
    creator,
    'live_id',
  );
  return { id: body.live_id };
}

/** A pending report by `reporter` on a post or an account (reports.php); returns its id. */
export async function aReport(
  api: ApiClient,
  reporter: Acting,
  target: { post_id: number } | { user_id: number },
  overrides: { reason?: string; description?: string } = {},
): Promise<{ id: number }> {
  const body = await expectCreated(
    api,
    'aReport',
    'POST',
    'reports.php',
    { reason: 'other', description: 'Contenu inapproprié', ...target, ...overrides },
    reporter,
    'report_id',
  );
  return { id: body.report_id };
}

/**
 * Makes `candidate` an elected moderator the way the members do (moderators.php): they apply and each
 * of `voters` votes for them. Pass as many voters as the server's MODERATION_ELECTION_VOTES, on a
 * server whose MODERATION_VOTER_MIN_DAYS lets new accounts vote (0).
 */
export async function aModerator(api: ApiClient, candidate: Acting & WithId, voters: Acting[]): Promise<void> {
  await expectCreated(api, 'aModerator apply', 'POST', 'moderators.php?action=apply', { motivation: 'I will judge fairly' }, candidate);
  let elected = false;
  for (const voter of voters) {
    const body = await expectCreated(
      api,
      'aModerator vote',
      'POST',
      'moderators.php?action=vote_moderator',
      { candidate_id: candidate.id, vote: 'for' },
      voter,
    );
    elected ||= body.elected === true;
  }
  if (!elected)
    throw new Error(`aModerator: ${voters.length} votes did not elect user ${candidate.id}; pass MODERATION_ELECTION_VOTES voters`);
}

/** A feature suggestion by `author` (feature_suggestions.php); returns its id. */
export async function aSuggestion(
  api: ApiClient,
  author: Acting,
  overrides: { title?: string; description?: string } = {},
): Promise<{ id: number }> {
  const body = await expectCreated(
    api,
    'aSuggestion',
    'POST',
    'feature_suggestions.php',
    { title: 'Dark mode', description: 'A dark theme for reading at night', ...overrides },
    author,
  );
  if (typeof body.suggestion?.id !== 'number') throw new Error(`aSuggestion: no suggestion.id in ${JSON.stringify(body)}`);
  return { id: body.suggestion.id };
}

/** A page by `admin` (pages.php create), who becomes its admin; returns its id. */
export async function aPage(api: ApiClient, admin: Acting, overrides: Record<string, unknown> = {}): Promise<{ id: number }> {
  seq += 1;
  const body = await expectCreated(
    api,
    'aPage',
    'POST',
    'pages.php',
    { action: 'create', name: `Collectif ${seq}`, description: 'A collective', category: 'Collectif', ...overrides },
    admin,
    'id',
  );
  return { id: body.id };
}

/** A post on `page` by a member of its team (pages.php create_post); returns its id. */
export async function aPagePost(
  api: ApiClient,
  author: Acting,
  page: number | { id: number },
  overrides: Record<string, unknown> = {},
): Promise<{ id: number }> {
  const pageId = typeof page === 'number' ? page : page.id;
  const body = await expectCreated(
    api,
    'aPagePost',
    'POST',
    'pages.php',
    { action: 'create_post', page_id: pageId, content: 'News from the collective', ...overrides },
    author,
    'id',
  );
  return { id: body.id };
}

/** A comment on a page post (pages.php comment); returns its id. */
export async function aPageComment(
  api: ApiClient,
  author: Acting,
  post: number | { id: number },
  overrides: Record<string, unknown> = {},
): Promise<{ id: number }> {
  const postId = typeof post === 'number' ? post : post.id;
  const body = await expectCreated(
    api,
    'aPageComment',
    'POST',
    'pages.php',
    { action: 'comment', post_id: postId, content: 'Solidarity', ...overrides },
    author,
    'id',
  );
  return { id: body.id };
}

/** Sends a request that must answer 201 with `success: true` and a numeric `idKey` (group posts and comments). */
async function expect201(
  api: ApiClient,
  what: string,
  url: string,
  body: unknown,
  who: Acting,
  idKey: string,
): Promise<Record<string, any>> {
  const res = await api.request('POST', url, body, { token: who.token });
  if (res.status !== 201 || res.body?.success !== true) throw refused(what, 'POST', url, res);
  if (typeof res.body[idKey] !== 'number')
    throw new Error(`${what}: POST ${url} answered 201 without a numeric ${idKey}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A community group (groups.php create) whose creator is its first admin; returns its id. Not a messaging group. */
export async function aCommunityGroup(
  api: ApiClient,
  creator: Acting,
  overrides: { name?: string; description?: string; privacy?: 'public' | 'private'; avatar?: string } = {},
): Promise<{ id: number }> {
  seq += 1;
  const body = await expect201(
    api,
    'aCommunityGroup',
    'groups.php',
    { action: 'create', name: `Community ${seq}`, description: 'A community', privacy: 'public', ...overrides },
    creator,
    'id',
  );
  return { id: body.id };
}

/** `members` join `group` (groups.php join); for a private group, `admin` approves each request. */
export async function aGroupMembership(
  api: ApiClient,
  group: number | { id: number },
  members: (Acting & WithId)[],
  admin?: Acting,
): Promise<void> {
  const groupId = typeof group === 'number' ? group : group.id;
  for (const m of members) {
    const joined = await expectCreated(api, 'aGroupMembership join', 'POST', 'groups.php', { action: 'join', group_id: groupId }, m);
    if (joined.status === 'joined') continue;
    if (!admin) throw new Error(`aGroupMembership: group ${groupId} is private; pass its admin to approve`);
    await expectCreated(
      api,
      'aGroupMembership approve',
      'POST',
      'groups.php',
      { action: 'approve_request', group_id: groupId, user_id: m.id },
      admin,
    );
  }
}

/** A post in a community group by a member (group_posts.php, answered 201); returns its id. */
export async function aGroupPost(
  api: ApiClient,
  author: Acting,
  group: number | { id: number },
  overrides: Record<string, unknown> = {},
): Promise<{ id: number }> {
  const groupId = typeof group === 'number' ? group : group.id;
  const body = await expect201(
    api,
    'aGroupPost',
    'group_posts.php',
    { group_id: groupId, content: 'Meeting on Friday', ...overrides },
    author,
    'id',
  );
  return { id: body.id };
}

/** A comment (or reply, with `parent_id`) on a group post (group_comments.php, answered 201); returns its id. */
export async function aGroupComment(
  api: ApiClient,
  author: Acting,
  post: number | { id: number },
  overrides: { content?: string; parent_id?: number } = {},
): Promise<{ id: number }> {
  const postId = typeof post === 'number' ? post : post.id;
  const body = await expect201(
    api,
    'aGroupComment',
    'group_comments.php',
    { post_id: postId, content: 'See you there', ...overrides },
    author,
    'id',
  );
  return { id: body.id };
}

/** An event organised by `creator` (events.php); returns its id. */
export async function anEvent(api: ApiClient, creator: Acting, overrides: Record<string, unknown> = {}): Promise<{ id: number }> {
  const body = await expectCreated(
    api,
    'anEvent',
    'POST',
    'events.php',
    {
      title: 'Assemblée générale',
      description: 'Tout le monde est bienvenu',
      location: 'Bourse du travail',
      event_date: '2099-05-01 18:00:00',
      image: null,
      ...overrides,
    },
    creator,
    'id',
  );
  return { id: body.id };
}

/** An album of `owner` (albums.php); returns its id. */
export async function anAlbum(api: ApiClient, owner: Acting, overrides: Record<string, unknown> = {}): Promise<{ id: number }> {
  const body = await expectCreated(
    api,
    'anAlbum',
    'POST',
    'albums.php',
    { title: 'Manif du 1er mai', description: 'Photos', ...overrides },
    owner,
    'id',
  );
  return { id: body.id };
}

/**
 * A private account accepts every pending follow request, remote ones included (docs/decisions/0210):
 * for tests whose remote follower must be a follower before the rest goes on. The caller drains the
 * federation queue if it waits for the Accepts.
 */
export async function acceptPendingFollows(api: ApiClient, user: Acting): Promise<void> {
  const pending = (await api.get('friends.php?type=pending', { token: user.token })).body.pending_requests as { request_id: number }[];
  for (const r of pending) {
    const res = await api.post('friends.php', { action: 'accept', request_id: r.request_id }, { token: user.token });
    if (res.status !== 200) throw new Error(`acceptPendingFollows: request ${r.request_id} answered ${res.status}`);
  }
}
