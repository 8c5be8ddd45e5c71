import { describe, expect, it } from 'vitest';
import { AccountDataFromParts } from './account-data.js';
import { InMemoryAccountDataPart } from './testing/in-memory-account-settings.js';

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

const noPosts = { async *posts() {} };

describe('AccountDataFromParts', () => {
  it('reads each section from the part that claims it, in module order, and gathers every part’s media', async () => {
    const social = new InMemoryAccountDataPart(['following', 'followers']);
    const content = new InMemoryAccountDataPart(['posts']);
    social.put(1, 'following', [{ user_id: 2 }]);
    content.put(1, 'posts', [{ id: 10 }]);
    content.put(2, 'posts', [{ id: 11 }]);
    social.stored.set(1, [{ value: 'avatar_a.jpg', kind: 'avatar', source: 'avatar' }]);
    content.stored.set(1, [{ value: 'media_b.jpg', kind: 'posts', source: 'post:10' }]);
    const reader = new AccountDataFromParts([social, content], noPosts);
    expect(reader.sections).toEqual(['following', 'followers', 'posts']);
    expect(await all(reader.rows(1, 'posts'))).toEqual([{ id: 10 }]);
    expect(await all(reader.rows(1, 'followers'))).toEqual([]);
    expect((await all(reader.media(1))).map((m) => m.source)).toEqual(['avatar', 'post:10']);
  });

  it('refuses two parts claiming one section, or the media section, when it is built', () => {
    expect(
      () => new AccountDataFromParts([new InMemoryAccountDataPart(['posts']), new InMemoryAccountDataPart(['posts'])], noPosts),
    ).toThrow(/"posts" is claimed twice/);
    expect(() => new AccountDataFromParts([new InMemoryAccountDataPart(['media'])], noPosts)).toThrow(/"media"/);
  });

  it('refuses a section no part exports', () => {
    expect(() => new AccountDataFromParts([], noPosts).rows(1, 'nothing')).toThrow(/No part exports/);
  });
});
