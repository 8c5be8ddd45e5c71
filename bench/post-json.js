// Plaza's JSON of a post, as the floors write it from the rows they read or wrote: the page of GET
// posts.php (following feed, page 1) for the MySQL feed floor (10-feed.js) and the SQLite one
// (40-sqlite-feed.js), and the answer to a new post for create-post's same-work floor (11-create-post.js).

const parseList = (text) => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

const mediaType = (stored, media) =>
  stored === 'image' || stored === 'video'
    ? stored
    : media.length === 0
      ? null
      : /\.(mp4|webm|mov|m4v|avi|mkv)$/i.test(media[0])
        ? 'video'
        : 'image';

/**
 * What to read for a page of timeline entries (`perPage + 1` at most): the entries shown, their post
 * ids, and (given the posts) the ids of the accounts to name.
 */
export function pageOf(entries, perPage) {
  const page = entries.slice(0, perPage);
  const postIds = [...new Set(page.map((e) => e.post_id))];
  const accountIds = (posts) => {
    const ids = new Set(posts.map((p) => p.user_id));
    for (const e of page) if (e.is_share) ids.add(e.owner_id);
    return [...ids];
  };
  return { page, postIds, accountIds };
}

/** The JSON text Plaza answers (UTC, no technician list), from the page's rows read by key. */
export function feedAnswer({ entries, perPage, posts, users, reactions, bookmarks }) {
  const { page } = pageOf(entries, perPage);
  const byId = new Map(posts.map((p) => [p.id, p]));
  const author = new Map(users.map((u) => [u.id, u]));
  const reaction = new Map(reactions.map((r) => [r.post_id, r.reaction_type]));
  const bookmarked = new Set(bookmarks.map((b) => b.post_id));
  const items = page.flatMap((e) => {
    const p = byId.get(e.post_id);
    const a = p && author.get(p.user_id);
    if (!p || !a) return [];
    return [
      postItem(p, a, {
        reaction: reaction.get(p.id) ?? null,
        bookmarked: bookmarked.has(p.id),
        feedDate: e.created_at,
        sharedBy: e.is_share ? (author.get(e.owner_id)?.username ?? null) : null,
      }),
    ];
  });
  const json = JSON.stringify(items);
  const pagination = JSON.stringify({ current_page: 1, per_page: perPage, has_more: entries.length > perPage });
  return `{"success":true,"data":{"posts":${json},"pagination":${pagination}},"posts":${json}}`;
}

/**
 * A post as Plaza presents it: `p` its row, `a` its author's (username, avatar, badge and roles), and
 * what the viewer and the list add: the viewer's reaction and bookmark, the date it entered the list
 * and who shared it there.
 */
export function postItem(p, a, { reaction = null, bookmarked = false, feedDate = p.created_at, sharedBy = null } = {}) {
  const media = parseList(p.media);
  return {
    id: p.id,
    user_id: p.user_id,
    username: a.username,
    avatar: a.avatar ?? 'default.svg',
    militant_badge: a.militant_badge,
    is_militant_technician: Boolean(a.is_admin || a.is_technician),
    is_moderator: Boolean(a.is_admin || a.is_moderator),
    content: p.content,
    media: media.map((m) => (m.includes('/') ? m : `uploads/posts/${m}`)),
    media_type: mediaType(p.media_type, media),
    likes_count: Number(p.likes_count),
    comments_count: Number(p.comments_count),
    shares_count: Number(p.shares_count),
    is_liked: reaction !== null,
    reaction_type: reaction,
    is_bookmarked: bookmarked,
    tags: parseList(p.tags),
    type: 'post',
    group_id: null,
    created_at: p.created_at,
    updated_at: p.updated_at,
    feed_date: feedDate,
    shared_by_username: sharedBy,
  };
}
