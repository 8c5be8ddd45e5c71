import type { ApiClient } from './client.js';
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
  aPage,
  aPageComment,
  aPagePost,
  aPost,
  aReport,
  aSuggestion,
  aUser,
  anAlbum,
  anEvent,
  MOBILE_APP,
  type TestUser,
} from './mothers.js';

/**
 * What the operation examples share (test/support/operation-examples.ts collects them): the rows
 * every sweep seeds once, the shape of an example, and unique values. Each context's examples are in
 * test/support/examples/<context>.ts.
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

/** Each operation's example, by its label (`POST posts.php`): one context's file in test/support/examples/. */
export type Examples = Record<string, (f: Fixtures) => Example>;

let seq = 0;
/** A string unique within the run, for values that must not repeat (usernames, e-mails). */
export const unique = () => `w${Date.now().toString(36)}${(seq++).toString(36)}`;
