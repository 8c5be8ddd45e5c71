import type { Examples } from '../operation-fixtures.js';

/** The albums context's examples (albums.php). */
export const EXAMPLES: Examples = {
  // albums.php: `me` owns `albums.mine`.
  'GET albums.php has=user_id': (f) => ({ query: { user_id: f.other.id } }),
  'GET albums.php has=id': (f) => ({ query: { id: f.albums.mine } }),
  'POST albums.php': () => ({ body: { title: 'Manif', description: 'Photos' } }),
  'POST albums.php action=add_photo': (f) => ({
    body: { album_id: f.albums.mine, photo: f.albums.photo, caption: 'La banderole' },
    aliases: ['photo', 'path', 'media'],
  }),
  'DELETE albums.php': (f) => ({ query: { id: f.albums.mine } }),
};
