import type { Examples } from '../operation-fixtures.js';

/** The lives context's examples (lives.php). */
export const EXAMPLES: Examples = {
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
  'POST lives.php path=token': (f) => ({
    body: { roomName: `live-${f.lives.theirs}`, identity: `u${f.me.id}-me`, name: 'Me', liveId: f.lives.theirs },
  }),
};
