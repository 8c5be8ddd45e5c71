import type { Examples } from '../operation-fixtures.js';

/** The media context's examples (upload.php and translate.php). */
export const EXAMPLES: Examples = {
  // upload.php takes multipart (test/e2e/upload.test.ts); as JSON it has no file, which the sweeps' variations keep a 4xx.
  'POST upload.php': () => ({ body: { type: 'posts' } }),
  'POST translate.php': () => ({ body: { text: 'Hello comrades', target_lang: 'fr' } }),
};
