import type { Examples } from '../operation-fixtures.js';

/** The pages context's examples (pages.php). */
export const EXAMPLES: Examples = {
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
};
