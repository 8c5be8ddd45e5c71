// Plaza's answer to GET posts.php (following feed, page 1), written by the feed floors from what they
// read by key: one shape for the MySQL floor (10-feed.js) and the SQLite one (40-sqlite-feed.js).

const parseList = (text) => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

const mediaType = (stored, media) =>
  stored === 'image' || stored === 'video' ? stored : media.length === 0 ? null : /\.(mp4|webm|mov|m4v|avi|mkv)$/i.test(media[0]) ? 'video' : 'image';

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
    const media = parseList(p.media);
    return [
      {
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
        is_liked: reaction.has(p.id),
        reaction_type: reaction.get(p.id) ?? null,
        is_bookmarked: bookmarked.has(p.id),
        tags: parseList(p.tags),
        type: 'post',
        group_id: null,
        created_at: p.created_at,
        updated_at: p.updated_at,
        feed_date: e.created_at,
        shared_by_username: e.is_share ? (author.get(e.owner_id)?.username ?? null) : null,
      },
    ];
  });
  const json = JSON.stringify(items);
  const pagination = JSON.stringify({ current_page: 1, per_page: perPage, has_more: entries.length > perPage });
  return `{"success":true,"data":{"posts":${json},"pagination":${pagination}},"posts":${json}}`;
}
