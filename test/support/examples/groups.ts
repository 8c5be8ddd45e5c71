import type { Examples } from '../operation-fixtures.js';

/** The groups context's examples (community groups: groups.php, group_posts.php, group_comments.php, group_reactions.php). */
export const EXAMPLES: Examples = {
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
};
