import type { Examples } from '../operation-fixtures.js';

/** The discovery context's examples (search.php and discover.php). */
export const EXAMPLES: Examples = {
  'GET search.php': () => ({ query: { q: 'fixture', type: 'all' } }),
  'GET discover.php': () => ({ query: { type: 'all', page: 1 } }),
};
