import type { Examples } from '../operation-fixtures.js';

/** The events context's examples (events.php). */
export const EXAMPLES: Examples = {
  // events.php: `me` organises `events.mine`; `other` organises `events.theirs`.
  'GET events.php has=id': (f) => ({ query: { id: f.events.theirs } }),
  'POST events.php': (f) => ({
    body: {
      title: 'Assemblée',
      description: 'Bienvenue',
      location: 'Bourse du travail',
      event_date: '2099-05-01 18:00:00',
      image: f.events.image,
    },
  }),
  'POST events.php action=join': (f) => ({ body: { event_id: f.events.theirs } }),
  'POST events.php action=invite': (f) => ({ body: { event_id: f.events.mine, user_id: f.other.id } }),
  'DELETE events.php': (f) => ({ query: { id: f.events.theirs } }),
  'DELETE events.php action=leave': (f) => ({ query: { id: f.events.theirs } }),
  'DELETE events.php action=delete': (f) => ({ query: { id: f.events.mine } }),
};
