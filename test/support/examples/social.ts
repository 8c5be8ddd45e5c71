import type { Examples } from '../operation-fixtures.js';

/** The social context's examples (follows.php and friends.php). */
export const EXAMPLES: Examples = {
  'GET follows.php': (f) => ({ query: { user_id: f.other.id } }),
  'POST follows.php': (f) => ({ body: { user_id: f.other.id } }),
  'DELETE follows.php': (f) => ({ query: { user_id: f.other.id } }),
  'POST friends.php action=send': (f) => ({ body: { user_id: f.other.id } }),
  'POST friends.php action=accept': (f) => ({ body: { request_id: f.friendRequest } }),
  'POST friends.php action=reject': (f) => ({ body: { request_id: f.friendRequest } }),
  'DELETE friends.php': (f) => ({ query: { user_id: f.other.id } }),
};
