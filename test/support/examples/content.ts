import type { Examples } from '../operation-fixtures.js';

/** The content context's examples (posts, comments, reactions, likes, bookmarks, shares and stories). */
export const EXAMPLES: Examples = {
  'GET posts.php has=id': (f) => ({ query: { id: f.post } }),
  'GET posts.php has=user_id': (f) => ({ query: { user_id: f.me.id } }),
  'POST posts.php': (f) => ({ body: { content: 'a post', media: [f.uploads.post], tags: ['tag'] } }),
  'PUT posts.php has=id': (f) => ({ query: { id: f.post }, body: { content: 'edited', tags: ['tag'] } }),
  'DELETE posts.php has=id': (f) => ({ query: { id: f.post } }),
  'GET comments.php': (f) => ({ query: { post_id: f.post } }),
  'POST comments.php': (f) => ({ body: { post_id: f.post, content: 'a comment', parent_id: f.comment } }),
  'PUT comments.php': (f) => ({ query: { id: f.comment }, body: { content: 'edited' } }),
  'DELETE comments.php': (f) => ({ query: { id: f.comment } }),
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
};
