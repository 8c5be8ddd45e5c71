import type { AnyOperation, Script } from '@plaza/adapters-http';
import { z } from 'zod';
import type { ApiClient, ApiResponse } from './client.js';
import { aPage, aPageComment, aPagePost, anAlbum, anEvent } from './mothers.js';
import { uploadedMedia } from './uploads.js';
import {
  aCall,
  aComment,
  aCommunityGroup,
  aFriendRequest,
  aGroupComment,
  aGroupMembership,
  aGroupPost,
  aGroupMessage,
  aLive,
  aMessage,
  aMessageGroup,
  aModerator,
  aPost,
  aReport,
  aSuggestion,
  aUser,
  MOBILE_APP,
  type TestUser,
} from './mothers.js';

/**
 * A valid request for each operation of the registry, for the sweeps that vary one field at a time
 * (test/e2e/input-widths.test.ts, unknown-ids.test.ts, fuzz.test.ts): the other fields must be right
 * for the varied one to reach the code under test. A script added tomorrow gets its line here; the
 * sweeps fail, naming the operation, until it has one.
 */

/** What every example may point at: rows the acting user `me` owns or may act on. */
export interface Fixtures {
  me: TestUser;
  other: TestUser;
  post: number;
  comment: number;
  message: number;
  group: number;
  groupMessage: number;
  /** A pending request to join `group` (which `me` administers). */
  groupRequest: number;
  /** A pending friend request from `other` to `me`. */
  friendRequest: number;
  /** An elected moderator, for the operations only moderators may call (`as: 'moderator'`). */
  moderator: TestUser;
  /** A feature suggestion by `me`. */
  suggestion: number;
  /** `me`'s pending report on `other`'s account. */
  report: number;
  /** Pending reports the moderator may decide: each example that decides one takes the next. */
  reportsToJudge: number[];
  /** Calls (calls.php): `me` calling `other`, answered; `other` calling `me`, ringing; `other`'s call in `group`. */
  calls: { outgoing: number; incoming: number; group: number };
  /** Lives (lives.php): `me`'s, with `other` asking to go on stage; `other`'s, with a comment by `me`. */
  lives: { mine: number; theirs: number; comment: number };
  /**
   * Community groups (groups.php, not messaging groups): `me` administers the public `group`, which
   * `other` joined, with `me`'s `post` and `other`'s `comment` on it; and the private `privateGroup`,
   * with a pending request to join from `requester`; `leavable`, `other`'s public group `me` joined;
   * an uploaded group `image` (avatar, cover) and group post `media`.
   */
  community: {
    group: number;
    privateGroup: number;
    post: number;
    comment: number;
    requester: number;
    leavable: number;
    image: string;
    media: string;
  };
  /**
   * Pages (pages.php): `me` administers `page`, with `other` its editor and a follower; `me`'s `post` on
   * it with `other`'s `comment`; `media` a file uploaded (type posts) for page posts.
   */
  pages: { page: number; post: number; comment: number; media: string };
  /** Events (events.php): `me`'s `mine`, `other`'s `theirs`; `image` a file uploaded with type event. */
  events: { mine: number; theirs: number; image: string };
  /** Albums (albums.php): `me`'s `mine`; `photo` a file uploaded with type album. */
  albums: { mine: number; photo: string };
  /** Files `me` uploaded with upload.php, as posts, stories and lives reference them. */
  uploads: { post: string; story: string; background: string };
}

export async function seedFixtures(api: ApiClient): Promise<Fixtures> {
  const me = await aUser(api);
  const other = await aUser(api);
  const third = await aUser(api);
  const post = (await aPost(api, me, { content: 'fixture post' })).id;
  const comment = (await aComment(api, me, post)).id;
  const message = (await aMessage(api, me, other)).id;
  const group = (await aMessageGroup(api, me, [other])).id;
  const groupMessage = (await aGroupMessage(api, me, group)).id;
  // A member's invitation becomes a request for the admins.
  const invite = await api.post(`message_groups.php?path=${group}/members`, { user_id: third.id }, { token: other.token });
  if (typeof invite.body?.request_id !== 'number')
    throw new Error(`fixture group request: ${invite.status} ${JSON.stringify(invite.body)}`);
  const friendRequest = (await aFriendRequest(api, other, me)).requestId;
  // Moderation: a moderator elected by five members (the default threshold), a suggestion, reports.
  const moderator = await aUser(api);
  await aModerator(api, moderator, [me, other, third, await aUser(api), await aUser(api)]);
  const suggestion = (await aSuggestion(api, me)).id;
  const report = (await aReport(api, me, { user_id: other.id })).id;
  const reported = await aUser(api);
  const reportsToJudge: number[] = [];
  for (let i = 0; i < 8; i++) reportsToJudge.push((await aReport(api, third, { post_id: (await aPost(api, reported)).id })).id);
  const outgoing = (await aCall(api, me, { recipient_id: other.id })).id;
  await api.post('calls.php?action=answer', { call_id: outgoing, answer: 'v=0' }, { token: other.token, headers: MOBILE_APP });
  const incoming = (await aCall(api, other, { recipient_id: me.id })).id;
  const groupCall = (await aCall(api, other, { group_id: group })).id;
  const mine = (await aLive(api, me)).id;
  const theirs = (await aLive(api, other)).id;
  await api.post(`lives.php?path=${mine}/request-guest`, { message: 'me too' }, { token: other.token });
  const liveComment = await api.post(`lives.php?path=${theirs}/comments`, { content: 'hello' }, { token: me.token });
  if (typeof liveComment.body?.comment_id !== 'number')
    throw new Error(`fixture live comment: ${liveComment.status} ${JSON.stringify(liveComment.body)}`);
  const communityGroup = (await aCommunityGroup(api, me)).id;
  await aGroupMembership(api, communityGroup, [other]);
  const communityPost = (await aGroupPost(api, me, communityGroup)).id;
  const communityComment = (await aGroupComment(api, other, communityPost)).id;
  const privateGroup = (await aCommunityGroup(api, me, { privacy: 'private' })).id;
  const requester = await aUser(api);
  await api.post('groups.php', { action: 'join', group_id: privateGroup }, { token: requester.token });
  const leavable = (await aCommunityGroup(api, other)).id;
  await aGroupMembership(api, leavable, [me]);
  const communityImage = (await uploadedMedia(api, me, 'group')).filename;
  const communityMedia = (await uploadedMedia(api, me, 'group_post')).filename;
  const page = (await aPage(api, me)).id;
  await api.post('pages.php', { action: 'add_team_member', page_id: page, username: other.username, role: 'editor' }, { token: me.token });
  await api.post('pages.php', { action: 'follow', page_id: page }, { token: other.token });
  const pagePost = (await aPagePost(api, me, page)).id;
  const pageComment = (await aPageComment(api, other, pagePost)).id;
  const pageMedia = (await uploadedMedia(api, me, 'posts')).filename;
  const myEvent = (await anEvent(api, me)).id;
  const theirEvent = (await anEvent(api, other)).id;
  const eventImage = (await uploadedMedia(api, me, 'event')).filename;
  const myAlbum = (await anAlbum(api, me)).id;
  const albumPhoto = (await uploadedMedia(api, me, 'album')).filename;
  const uploads = {
    post: (await uploadedMedia(api, me, 'posts')).filename,
    story: (await uploadedMedia(api, me, 'stories')).filename,
    background: (await uploadedMedia(api, me, 'posts')).url,
  };
  return {
    me,
    other,
    post,
    comment,
    message,
    group,
    groupMessage,
    groupRequest: invite.body.request_id,
    friendRequest,
    moderator,
    suggestion,
    report,
    reportsToJudge,
    calls: { outgoing, incoming, group: groupCall },
    lives: { mine, theirs, comment: liveComment.body.comment_id },
    community: {
      group: communityGroup,
      privateGroup,
      post: communityPost,
      comment: communityComment,
      requester: requester.id,
      leavable,
      image: communityImage,
      media: communityMedia,
    },
    pages: { page, post: pagePost, comment: pageComment, media: pageMedia },
    events: { mine: myEvent, theirs: theirEvent, image: eventImage },
    albums: { mine: myAlbum, photo: albumPhoto },
    uploads,
  };
}

export interface Example {
  /** Query keys, path parameters (`:id` of `?path=:id/messages`) and `has` keys included. */
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** Body fields that say the same thing (`user_id` or `recipient_id`): the example sends one of them. */
  aliases?: string[];
  /** Who sends it, when not `me`: `other`, or the fixtures' `moderator` for moderators' operations. */
  as?: 'other' | 'moderator';
}

/** The token of whoever sends the example (`me` unless it says `as`). */
export function tokenOf(f: Fixtures, example: Example): string {
  return example.as ? f[example.as].token : f.me.token;
}

/** The example with `field` set to `value`, and the aliases it stands for left out. */
export function withField(example: Example, field: InputField, value: unknown): Example {
  const body = { ...example.body };
  const aliases = example.aliases ?? [];
  if (aliases.includes(field.name)) for (const alias of aliases) if (alias !== field.name) delete body[alias];
  if (field.where === 'query') return { ...example, body, query: { ...example.query, [field.name]: value as string } };
  return { ...example, body: { ...body, [field.name]: value } };
}

let seq = 0;
/** A string unique within the run, for values that must not repeat (usernames, e-mails). */
export const unique = () => `w${Date.now().toString(36)}${(seq++).toString(36)}`;

/** `METHOD script.php action=… path=… has=…`: an operation's name in the tables and in failures. */
export function labelOf(script: string, o: Pick<AnyOperation, 'method' | 'select'>): string {
  const s = o.select ?? {};
  return [
    o.method,
    script.endsWith('.php') ? script : `${script}.php`,
    s.action !== undefined ? `action=${s.action}` : '',
    s.path !== undefined ? `path=${s.path}` : '',
    s.has?.length ? `has=${s.has.join(',')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The valid request of every operation that reads or writes by an id or stores a string; `undefined`
 * for the others (no input, or only enums and flags). Each call builds a fresh one.
 */
export const EXAMPLES: Record<string, (f: Fixtures) => Example> = {
  'POST auth.php': (f) => ({ body: { username: f.me.username, password: f.me.password } }),
  'POST auth.php action=login': (f) => ({ body: { username: f.me.username, password: f.me.password } }),
  'POST auth.php action=register': () => {
    const name = unique();
    return { body: { username: name, email: `${name}@example.test`, password: 'correct horse battery', cause: 'Antifa' } };
  },
  'POST auth.php action=forgot_password': (f) => ({ body: { email: f.me.email } }),
  'POST auth.php action=resend_confirmation': (f) => ({ body: { email: f.me.email } }),
  // No link was mailed (confirmation is off in the sweeps' server): the token is refused, never stored.
  'GET auth.php action=confirm_email': () => ({ query: { token: 'a-link-nobody-was-sent' } }),
  'GET users.php has=id': (f) => ({ query: { id: f.other.id } }),
  'PUT users.php': () => ({ body: { display_name: 'Someone' } }),
  'PUT notifications.php has=id': () => ({ query: { id: 1 } }),
  'PUT notifications.php': () => ({ body: { id: 1 } }),
  'GET follows.php': (f) => ({ query: { user_id: f.other.id } }),
  'GET fediverse.php action=profile': (f) => ({ query: { user_id: f.other.id } }),
  'GET fediverse.php action=followers': (f) => ({ query: { user_id: f.other.id } }),
  'GET fediverse.php action=following': (f) => ({ query: { user_id: f.other.id } }),
  // The sweep servers reach no remote server: a loopback actor URL is refused by the SSRF guard at once.
  'GET fediverse.php action=search_remote': () => ({ query: { q: 'https://127.0.0.1/users/nobody' } }),
  'GET fediverse.php action=remote_profile': () => ({ query: { q: 'https://127.0.0.1/users/nobody' } }),
  'POST fediverse.php action=follow_remote': () => ({
    body: { actor_url: 'https://127.0.0.1/users/nobody' },
    aliases: ['actor_url', 'handle'],
  }),
  'DELETE fediverse.php action=unfollow_remote': () => ({
    body: { actor_url: 'https://127.0.0.1/users/nobody' },
    aliases: ['actor_url', 'handle'],
  }),
  'POST follows.php': (f) => ({ body: { user_id: f.other.id } }),
  'DELETE follows.php': (f) => ({ query: { user_id: f.other.id } }),
  'POST friends.php action=send': (f) => ({ body: { user_id: f.other.id } }),
  'POST friends.php action=accept': (f) => ({ body: { request_id: f.friendRequest } }),
  'POST friends.php action=reject': (f) => ({ body: { request_id: f.friendRequest } }),
  'DELETE friends.php': (f) => ({ query: { user_id: f.other.id } }),
  'GET messages.php has=typing_user_id': (f) => ({ query: { typing_user_id: f.other.id } }),
  'GET messages.php has=user_id': (f) => ({ query: { user_id: f.other.id, q: 'hello' } }),
  'GET messages.php': () => ({ query: { q: 'hello' } }),
  'POST messages.php action=typing': (f) => ({ body: { recipient_id: f.other.id, is_typing: true }, aliases: ['recipient_id', 'user_id'] }),
  'POST messages.php action=react': (f) => ({ body: { message_id: f.message, reaction_type: 'like' } }),
  'DELETE messages.php action=react': (f) => ({ query: { message_id: f.message } }),
  'POST messages.php': (f) => ({
    body: { user_id: f.other.id, content: 'hello', parent_id: f.message },
    aliases: ['user_id', 'recipient_id'],
  }),
  'PUT messages.php has=id': (f) => ({ query: { id: f.message }, body: { content: 'edited' } }),
  'PUT messages.php has=user_id': (f) => ({ query: { user_id: f.other.id }, body: { auto_delete_time: 0 } }),
  'DELETE messages.php has=id': (f) => ({ query: { id: f.message } }),
  'DELETE messages.php has=user_id': (f) => ({ query: { user_id: f.other.id } }),
  'GET message_groups.php path=': () => ({ query: { q: 'Comrades' } }),
  'POST message_groups.php path=': (f) => ({ body: { name: 'A group', avatar: 'default.svg', member_ids: [f.other.id] } }),
  'GET message_groups.php path=:id': (f) => ({ query: { id: f.group } }),
  'PUT message_groups.php path=:id': (f) => ({ query: { id: f.group }, body: { name: 'Comrades' } }),
  'DELETE message_groups.php path=:id': (f) => ({ query: { id: f.group } }),
  'GET message_groups.php path=:id/messages': (f) => ({ query: { id: f.group } }),
  'POST message_groups.php path=:id/messages': (f) => ({ query: { id: f.group }, body: { content: 'hello', parent_id: f.groupMessage } }),
  'GET message_groups.php path=:id/typing': (f) => ({ query: { id: f.group } }),
  'POST message_groups.php path=:id/typing': (f) => ({ query: { id: f.group }, body: { is_typing: true } }),
  'POST message_groups.php path=:id/members': (f) => ({ query: { id: f.group }, body: { user_id: f.other.id } }),
  'DELETE message_groups.php path=:id/members/:user_id': (f) => ({ query: { id: f.group, user_id: f.other.id } }),
  'POST message_groups.php path=:id/requests/:request_id/approve': (f) => ({ query: { id: f.group, request_id: f.groupRequest } }),
  'POST message_groups.php path=:id/requests/:request_id/reject': (f) => ({ query: { id: f.group, request_id: f.groupRequest } }),
  'PUT message_groups.php path=messages/:id': (f) => ({ query: { id: f.groupMessage }, body: { content: 'edited' } }),
  'DELETE message_groups.php path=messages/:id': (f) => ({ query: { id: f.groupMessage } }),
  'POST message_groups.php path=messages/:id/reactions': (f) => ({ query: { id: f.groupMessage }, body: { reaction_type: 'like' } }),
  'DELETE message_groups.php path=messages/:id/reactions': (f) => ({ query: { id: f.groupMessage } }),
  'GET posts.php has=id': (f) => ({ query: { id: f.post } }),
  'GET posts.php has=user_id': (f) => ({ query: { user_id: f.me.id } }),
  'POST posts.php': (f) => ({ body: { content: 'a post', media: [f.uploads.post], tags: ['tag'] } }),
  'PUT posts.php has=id': (f) => ({ query: { id: f.post }, body: { content: 'edited', tags: ['tag'] } }),
  'DELETE posts.php has=id': (f) => ({ query: { id: f.post } }),
  'GET comments.php': (f) => ({ query: { post_id: f.post } }),
  'POST comments.php': (f) => ({ body: { post_id: f.post, content: 'a comment', parent_id: f.comment } }),
  'PUT comments.php': (f) => ({ query: { id: f.comment }, body: { content: 'edited' } }),
  'DELETE comments.php': (f) => ({ query: { id: f.comment } }),
  'GET groups.php': () => ({ query: { q: 'Community' } }),
  'GET groups.php has=discover': () => ({ query: { discover: 1, q: 'Community' } }),
  'GET groups.php has=id': (f) => ({ query: { id: f.community.group } }),
  'GET groups.php has=id,members': (f) => ({ query: { id: f.community.group, members: 1 } }),
  'GET groups.php has=id,join_requests': (f) => ({ query: { id: f.community.privateGroup, join_requests: 1 } }),
  'POST groups.php action=create': (f) => ({
    body: {
      name: 'Gardeners',
      description: 'Seeds and soil',
      privacy: 'public',
      avatar: f.community.image,
      cover_image: f.community.image,
    },
  }),
  'POST groups.php': (f) => ({
    body: { name: 'Cyclists', description: 'Repair café', privacy: 'private', avatar: f.community.image, cover_image: f.community.image },
  }),
  'POST groups.php action=join': (f) => ({ body: { group_id: f.community.group }, as: 'other' }),
  'POST groups.php action=leave': (f) => ({ body: { group_id: f.community.leavable } }),
  'POST groups.php action=invite': (f) => ({ body: { group_id: f.community.group, user_id: f.moderator.id } }),
  'POST groups.php action=approve_request': (f) => ({ body: { group_id: f.community.privateGroup, user_id: f.community.requester } }),
  'POST groups.php action=reject_request': (f) => ({ body: { group_id: f.community.privateGroup, user_id: f.community.requester } }),
  'POST groups.php action=promote_member': (f) => ({ body: { group_id: f.community.group, user_id: f.other.id } }),
  'POST groups.php action=demote_member': (f) => ({ body: { group_id: f.community.group, user_id: f.other.id } }),
  'POST groups.php action=kick_member': (f) => ({ body: { group_id: f.community.group, user_id: f.other.id } }),
  'PUT groups.php': (f) => ({
    body: { id: f.community.group, name: 'Renamed', description: 'New words', avatar: f.community.image, cover_image: f.community.image },
  }),
  'DELETE groups.php': (f) => ({ query: { id: f.community.leavable } }),
  'GET group_posts.php': (f) => ({ query: { group_id: f.community.group } }),
  'GET group_posts.php has=id': (f) => ({ query: { id: f.community.post } }),
  'POST group_posts.php': (f) => ({
    body: { group_id: f.community.group, content: 'Hello group', media: f.community.media, tags: ['garden'] },
  }),
  'PUT group_posts.php': (f) => ({ body: { id: f.community.post, content: 'Edited' } }),
  'DELETE group_posts.php': (f) => ({ query: { id: f.community.post } }),
  'GET group_comments.php': (f) => ({ query: { post_id: f.community.post } }),
  'POST group_comments.php': (f) => ({ body: { post_id: f.community.post, content: 'Count me in', parent_id: f.community.comment } }),
  'PUT group_comments.php': (f) => ({ body: { id: f.community.comment, content: 'Edited' }, as: 'other' }),
  'DELETE group_comments.php': (f) => ({ query: { id: f.community.comment } }),
  'POST group_reactions.php': (f) => ({ body: { post_id: f.community.post, reaction_type: 'love' } }),
  'DELETE group_reactions.php': (f) => ({ query: { post_id: f.community.post } }),
  // pages.php: `me` runs `pages.page` (with `other` as editor and follower).
  'GET pages.php': () => ({}),
  'GET pages.php has=discover': () => ({ query: { discover: 1, q: 'Collectif' } }),
  'GET pages.php has=followed': () => ({ query: { followed: 1 } }),
  'GET pages.php has=id': (f) => ({ query: { id: f.pages.page } }),
  'GET pages.php path=:id/posts': (f) => ({ query: { id: f.pages.page } }),
  'GET pages.php path=:id/comments/:post_id': (f) => ({ query: { id: f.pages.page, post_id: f.pages.post } }),
  'GET pages.php path=:id/followers': (f) => ({ query: { id: f.pages.page } }),
  'GET pages.php path=:id/team': (f) => ({ query: { id: f.pages.page } }),
  'POST pages.php': () => ({
    body: {
      name: 'Collectif',
      description: 'A collective',
      category: 'Collectif',
      location: 'Lyon',
      website: 'https://example.org',
      avatar: 'default.svg',
      social_mastodon: '@c@example.org',
    },
  }),
  'POST pages.php action=create': () => ({
    body: {
      name: 'Collectif',
      description: 'A collective',
      category: 'Collectif',
      location: 'Lyon',
      website: 'https://example.org',
      social_bluesky: 'c.example.org',
    },
  }),
  'POST pages.php action=update_page': (f) => ({
    body: {
      page_id: f.pages.page,
      name: 'Renamed',
      description: 'New words',
      category: 'Média',
      location: 'Paris',
      website: 'https://example.org',
      social_twitter: 'c',
      social_instagram: 'c',
      social_tiktok: 'c',
      social_facebook: 'c',
    },
  }),
  'POST pages.php action=follow': (f) => ({ body: { page_id: f.pages.page } }),
  'POST pages.php action=unfollow': (f) => ({ body: { page_id: f.pages.page } }),
  'DELETE pages.php action=unfollow': (f) => ({ body: { page_id: f.pages.page } }),
  'DELETE pages.php': (f) => ({ body: { page_id: f.pages.page } }),
  'POST pages.php action=create_post': (f) => ({ body: { page_id: f.pages.page, content: 'News', media: f.pages.media } }),
  'PUT pages.php action=update_post': (f) => ({ body: { post_id: f.pages.post, content: 'Edited' } }),
  'DELETE pages.php action=delete_post': (f) => ({ body: { post_id: f.pages.post } }),
  'POST pages.php action=react': (f) => ({ body: { post_id: f.pages.post, type: 'love' } }),
  'POST pages.php action=comment': (f) => ({ body: { post_id: f.pages.post, content: 'Solidarity' } }),
  'PUT pages.php action=update_comment': (f) => ({ body: { comment_id: f.pages.comment, content: 'Edited' }, as: 'other' }),
  'DELETE pages.php action=delete_comment': (f) => ({ body: { comment_id: f.pages.comment } }),
  'POST pages.php action=add_team_member': (f) => ({ body: { page_id: f.pages.page, username: f.moderator.username, role: 'editor' } }),
  'POST pages.php action=update_team_role': (f) => ({ body: { page_id: f.pages.page, user_id: f.other.id, role: 'editor' } }),
  'DELETE pages.php action=remove_team_member': (f) => ({ body: { page_id: f.pages.page, user_id: f.other.id } }),
  'DELETE pages.php action=remove_follower': (f) => ({ body: { page_id: f.pages.page, user_id: f.other.id } }),
  // events.php: `me` organises `events.mine`; `other` organises `events.theirs`.
  'GET events.php has=id': (f) => ({ query: { id: f.events.theirs } }),
  'POST events.php': (f) => ({
    body: {
      title: 'Assemblée',
      description: 'Bienvenue',
      location: 'Bourse du travail',
      event_date: '2099-05-01 18:00:00',
      image: f.events.image,
    },
  }),
  'POST events.php action=join': (f) => ({ body: { event_id: f.events.theirs } }),
  'POST events.php action=invite': (f) => ({ body: { event_id: f.events.mine, user_id: f.other.id } }),
  'DELETE events.php': (f) => ({ query: { id: f.events.theirs } }),
  'DELETE events.php action=leave': (f) => ({ query: { id: f.events.theirs } }),
  'DELETE events.php action=delete': (f) => ({ query: { id: f.events.mine } }),
  // albums.php: `me` owns `albums.mine`.
  'GET albums.php has=user_id': (f) => ({ query: { user_id: f.other.id } }),
  'GET albums.php has=id': (f) => ({ query: { id: f.albums.mine } }),
  'POST albums.php': () => ({ body: { title: 'Manif', description: 'Photos' } }),
  'POST albums.php action=add_photo': (f) => ({
    body: { album_id: f.albums.mine, photo: f.albums.photo, caption: 'La banderole' },
    aliases: ['photo', 'path', 'media'],
  }),
  'DELETE albums.php': (f) => ({ query: { id: f.albums.mine } }),
  'GET comment_reactions.php': (f) => ({ query: { comment_id: f.comment } }),
  'POST comment_reactions.php': (f) => ({ body: { comment_id: f.comment, reaction_type: 'like' } }),
  'DELETE comment_reactions.php': (f) => ({ query: { comment_id: f.comment } }),
  'GET reactions.php': (f) => ({ query: { post_id: f.post } }),
  'POST reactions.php': (f) => ({ body: { post_id: f.post, reaction_type: 'like' } }),
  'DELETE reactions.php': (f) => ({ query: { post_id: f.post } }),
  'POST likes.php': (f) => ({ body: { post_id: f.post } }),
  'DELETE likes.php': (f) => ({ query: { post_id: f.post } }),
  'POST bookmarks.php': (f) => ({ body: { post_id: f.post } }),
  'DELETE bookmarks.php': (f) => ({ query: { post_id: f.post } }),
  'POST shares.php': (f) => ({ body: { post_id: f.post } }),
  'GET stories.php has=user_id': (f) => ({ query: { user_id: f.other.id } }),
  'POST stories.php': (f) => ({ body: { media: f.uploads.story, text: 'a story' } }),
  'DELETE stories.php': () => ({ query: { id: 1 } }),
  // A moderator's warning stores its `reason`; each request decides another pending report.
  'POST reports.php': (f) => ({
    as: 'moderator',
    body: { moderator_action: 'warn_user', report_id: f.reportsToJudge.pop() ?? 0, reason: 'Mind your words', description: 'x' },
  }),
  'DELETE reports.php': (f) => ({ body: { report_id: f.report } }),
  'POST moderators.php action=apply': () => ({ body: { motivation: 'I read every report' } }),
  'POST moderators.php action=vote_moderator': (f) => ({ body: { candidate_id: f.moderator.id, vote: 'for' } }),
  // The spec's form without action: a candidacy by `other`, or with candidate_id (the sweeps' unknown one) a vote.
  'POST moderators.php': () => ({ as: 'other', body: { motivation: 'I read every report', vote: 'for' } }),
  'GET feature_suggestions.php has=id': (f) => ({ query: { id: f.suggestion } }),
  'POST feature_suggestions.php': () => ({ body: { title: 'Dark mode', description: 'A dark theme for reading at night' } }),
  'POST feature_suggestions.php action=vote': (f) => ({ body: { suggestion_id: f.suggestion, vote: 1 } }),
  'POST feature_suggestions.php action=comment': (f) => ({ body: { suggestion_id: f.suggestion, content: 'Yes please' } }),
  'POST feature_suggestions.php action=update_status': (f) => ({
    as: 'moderator',
    body: { suggestion_id: f.suggestion, status: 'planned', admin_response: 'Next release' },
  }),
  'DELETE feature_suggestions.php has=id': (f) => ({ query: { id: f.suggestion } }),
  // calls.php (`send` adds the mobile-app header).
  'POST calls.php action=initiate': (f) => ({
    body: { recipient_id: f.other.id, call_type: 'audio', offer: 'v=0' },
    aliases: ['recipient_id', 'group_id'],
  }),
  'POST calls.php action=initiate_talk': (f) => ({
    body: { group_id: f.group, room_token: 'room1', room_url: 'https://talk.example.org/call/room1' },
  }),
  'POST calls.php action=answer': (f) => ({ body: { call_id: f.calls.incoming, answer: 'v=0' }, aliases: ['answer', 'answer_sdp'] }),
  'POST calls.php action=join': (f) => ({ body: { call_id: f.calls.group, offer: 'v=0' } }),
  'POST calls.php action=peer_offer': (f) => ({
    body: { call_id: f.calls.group, to_user_id: f.other.id, offer: 'v=0' },
    aliases: ['offer', 'offer_sdp'],
  }),
  'POST calls.php action=peer_answer': (f) => ({
    body: { call_id: f.calls.group, to_user_id: f.other.id, answer: 'v=0' },
    aliases: ['answer', 'answer_sdp'],
  }),
  'POST calls.php action=ice_candidate': (f) => ({
    body: { call_id: f.calls.outgoing, candidate: 'candidate:1 1 udp 1 192.0.2.1 5000 typ host', to_user_id: f.other.id },
  }),
  'POST calls.php action=ice_restart': (f) => ({
    body: { call_id: f.calls.outgoing, offer: 'v=0', to_user_id: f.other.id },
    aliases: ['offer', 'offer_sdp'],
  }),
  'POST calls.php action=reject': (f) => ({ body: { call_id: f.calls.incoming } }),
  'POST calls.php action=leave': (f) => ({ body: { call_id: f.calls.group } }),
  'POST calls.php action=end': (f) => ({ body: { call_id: f.calls.outgoing } }),
  'GET calls.php action=poll': (f) => ({ query: { call_id: f.calls.outgoing } }),
  // lives.php: `me` runs `lives.mine` and watches `lives.theirs`.
  'POST lives.php': () => ({ body: { title: 'On air', description: 'Live from the plaza' } }),
  'GET lives.php path=:id': (f) => ({ query: { id: f.lives.theirs } }),
  'POST lives.php path=:id/end': (f) => ({ query: { id: f.lives.mine }, body: { action: 'end' } }),
  'PUT lives.php path=:id/end': (f) => ({ query: { id: f.lives.mine } }),
  'POST lives.php path=:id/join': (f) => ({ query: { id: f.lives.theirs } }),
  'GET lives.php path=:id/guests': (f) => ({ query: { id: f.lives.mine } }),
  'POST lives.php path=:id/request-guest': (f) => ({ query: { id: f.lives.theirs }, body: { message: 'let me speak' } }),
  'PUT lives.php path=:id/guests/:user_id/approve': (f) => ({ query: { id: f.lives.mine, user_id: f.other.id } }),
  'PUT lives.php path=:id/guests/:user_id/reject': (f) => ({ query: { id: f.lives.mine, user_id: f.other.id } }),
  'GET lives.php path=:id/comments': (f) => ({ query: { id: f.lives.theirs } }),
  'POST lives.php path=:id/comments': (f) => ({ query: { id: f.lives.theirs }, body: { content: 'hello' } }),
  'DELETE lives.php path=:id/comments/:comment_id': (f) => ({ query: { id: f.lives.theirs, comment_id: f.lives.comment } }),
  'PUT lives.php path=:id/moderators/:user_id': (f) => ({ query: { id: f.lives.mine, user_id: f.other.id } }),
  'PUT lives.php path=:id/chat-blocks/:user_id': (f) => ({ query: { id: f.lives.mine, user_id: f.other.id } }),
  'GET lives.php path=:id/moderation': (f) => ({ query: { id: f.lives.mine } }),
  'POST lives.php path=:id/report': (f) => ({ query: { id: f.lives.theirs }, body: { reason: 'spam', description: 'ads all along' } }),
  'PUT lives.php path=:id/background': (f) => ({ query: { id: f.lives.mine }, body: { background_image: f.uploads.background } }),
  // upload.php takes multipart (test/e2e/upload.test.ts); as JSON it has no file, which the sweeps' variations keep a 4xx.
  'POST upload.php': () => ({ body: { type: 'posts' } }),
  'POST translate.php': () => ({ body: { text: 'Hello comrades', target_lang: 'fr' } }),
  'GET search.php': () => ({ query: { q: 'fixture', type: 'all' } }),
  'GET discover.php': () => ({ query: { type: 'all', page: 1 } }),
  'POST lives.php path=token': (f) => ({
    body: { roomName: `live-${f.lives.theirs}`, identity: `u${f.me.id}-me`, name: 'Me', liveId: f.lives.theirs },
  }),
};

/** The URL and body of an example: `?action=`, `?path=` with its parameters filled in, the other query keys. */
export function requestOf(script: string, o: Pick<AnyOperation, 'select'>, example: Example): { url: string; body: unknown } {
  const params = new URLSearchParams();
  const query = { ...example.query };
  if (o.select?.action) params.set('action', o.select.action);
  if (o.select?.path !== undefined) {
    params.set(
      'path',
      o.select.path.replace(/:(\w+)/g, (_, name: string) => {
        const value = query[name];
        delete query[name];
        return String(value);
      }),
    );
  }
  for (const [k, v] of Object.entries(query)) params.set(k, String(v));
  const qs = params.toString().replace(/%2F/g, '/');
  return { url: `${script.endsWith('.php') ? script : `${script}.php`}${qs ? `?${qs}` : ''}`, body: example.body ?? {} };
}

/**
 * Sends a request of `o` as `token`'s user. `auth: "none"` operations go without: auth.php's refresh
 * and revoke read the bearer token themselves and would spend it.
 */
export async function send(
  api: ApiClient,
  o: Pick<AnyOperation, 'method' | 'auth'>,
  url: string,
  body: unknown,
  token: string,
): Promise<ApiResponse> {
  // calls.php refuses requests without the mobile-app header (403) before reading the ids and texts swept.
  const headers = url.startsWith('calls.php') ? MOBILE_APP : undefined;
  return api.request(o.method, url, o.method === 'GET' ? undefined : body, o.auth === 'none' ? {} : { token, headers });
}

type Json = Record<string, any>;

/** The alternatives of a JSON Schema node, nested `anyOf` flattened (`nullish()` and unions give them). */
function branches(node: Json): Json[] {
  return Array.isArray(node.anyOf) ? node.anyOf.flatMap(branches) : [node];
}

/** Free text (not an enum, constant or digit pattern) of at most `maxLength` characters. */
function isText(node: Json): node is Json & { maxLength?: number } {
  return node.type === 'string' && node.enum === undefined && node.const === undefined && node.pattern === undefined;
}

/** An id as `zId` declares it: a positive integer, or its digits. */
function isId(node: Json): boolean {
  const b = branches(node);
  return (
    b.some((x) => x.type === 'integer' && x.exclusiveMinimum === 0) &&
    b.some((x) => x.type === 'string' && typeof x.pattern === 'string' && x.pattern.startsWith('^\\d'))
  );
}

export interface InputField {
  where: 'query' | 'body';
  name: string;
}

/** A free-text field: sent as a string, or (`item`) as the element of an array of strings. */
export interface TextField extends InputField {
  shape: 'string' | 'item';
  maxLength: number | undefined;
}

export interface IdField extends InputField {
  list: boolean;
}

function propertiesOf(schema: unknown): [string, Json][] {
  if (!schema) return [];
  const js = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json;
  return Object.entries((js.properties ?? {}) as Record<string, Json>);
}

/** Every input of an operation, from its zod schemas (unions and refinements included). */
export function inputFieldsOf(o: AnyOperation): InputField[] {
  return (['query', 'body'] as const).flatMap((where) => propertiesOf(o[where]).map(([name]) => ({ where, name })));
}

/** Every free-text input of an operation, from its zod schemas. */
export function textFieldsOf(o: AnyOperation): TextField[] {
  return (['query', 'body'] as const).flatMap((where) =>
    propertiesOf(o[where]).flatMap(([name, node]) =>
      branches(node).flatMap((b): TextField[] => {
        if (isText(b)) return [{ where, name, shape: 'string', maxLength: b.maxLength }];
        if (b.type === 'array' && b.items && isText(b.items)) return [{ where, name, shape: 'item', maxLength: b.items.maxLength }];
        return [];
      }),
    ),
  );
}

/** Every id input of an operation (`zId`, or a list of them), path parameters included. */
export function idFieldsOf(o: AnyOperation): IdField[] {
  return (['query', 'body'] as const).flatMap((where) =>
    propertiesOf(o[where]).flatMap(([name, node]): IdField[] => {
      const b = branches(node);
      if (b.some(isId) || isId(node)) return [{ where, name, list: false }];
      if (b.some((x) => x.type === 'array' && x.items && isId(x.items))) return [{ where, name, list: true }];
      return [];
    }),
  );
}

/** Every operation of the composed server, with its label. */
export function operationsOf(scripts: Script[]): { script: string; o: AnyOperation; label: string }[] {
  return scripts.flatMap((s) => s.operations.map((o) => ({ script: `${s.name}.php`, o, label: labelOf(s.name, o) })));
}
