import { describe, expect, it } from 'vitest';
import { MAX_REMOTE_MENTIONS, remoteMentionsOf } from './mentions.js';

describe('remoteMentionsOf', () => {
  it('finds @name@host handles, lowercased and unique, with a port, not in e-mail addresses or URLs', () => {
    expect(remoteMentionsOf('Hi @Alice@Example.social and @bob@h.test:8443, again @alice@example.social.')).toEqual([
      '@alice@example.social',
      '@bob@h.test:8443',
    ]);
    expect(remoteMentionsOf('mail me: me@home.test, or x@y@z.test; see https://a.test/@carol@b.test')).toEqual([]);
    expect(remoteMentionsOf('@local only, and @bob')).toEqual([]);
  });

  it(`looks at ${MAX_REMOTE_MENTIONS} handles at most`, () => {
    const text = Array.from({ length: MAX_REMOTE_MENTIONS + 5 }, (_, i) => `@u${i}@h.test`).join(' ');
    expect(remoteMentionsOf(text)).toHaveLength(MAX_REMOTE_MENTIONS);
  });
});
