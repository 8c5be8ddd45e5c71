import type { Examples } from '../operation-fixtures.js';

/** The federation context's examples (fediverse.php). */
export const EXAMPLES: Examples = {
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
  // A remote post's URL: the sweeps' server reaches no remote server (refused or not found, nothing stored).
  'POST fediverse.php action=react_remote': () => ({ body: { object_url: 'https://127.0.0.1/notes/nothing', reaction_type: 'love' } }),
  'DELETE fediverse.php action=unreact_remote': () => ({ body: { object_url: 'https://127.0.0.1/notes/nothing' } }),
  'POST fediverse.php action=reply_remote': () => ({ body: { object_url: 'https://127.0.0.1/notes/nothing', content: 'Hello' } }),
  // No reply exists on the sweeps' server (none could be sent): the refusal is 404 remote_reply_not_found.
  'PUT fediverse.php action=edit_remote_reply': () => ({ body: { reply_id: 999_999, content: 'Hello again' } }),
  'DELETE fediverse.php action=delete_remote_reply': () => ({ body: { reply_id: 999_999 } }),
};
