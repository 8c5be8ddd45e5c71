import type { Examples } from '../operation-fixtures.js';

/** The notifications context's examples (notifications.php). */
export const EXAMPLES: Examples = {
  'PUT notifications.php has=id': () => ({ query: { id: 1 } }),
  'PUT notifications.php': () => ({ body: { id: 1 } }),
};
