import { describe, expect, it } from 'vitest';
import { answerJson } from './json-body.js';

describe('answerJson', () => {
  it('writes what JSON.stringify writes, for every shape of answer', () => {
    const posts = [
      { id: 1, at: new Date(0), nested: { a: [1, 2] } },
      { id: 2, skip: undefined },
    ];
    const bodies: Record<string, unknown>[] = [
      { success: true, data: { posts, pagination: { page: 1 } }, posts },
      { success: true, data: { posts, pagination: { page: 1 } }, posts: [...posts] },
      { success: true, data: [1, 2], posts },
      { success: true, data: null, x: undefined, f: () => 1 },
      { success: true, message: 'é "quoted" \u2028', data: { list: posts, other: posts, n: 3, u: undefined }, list: posts, other: posts },
      { success: true },
    ];
    for (const body of bodies) expect(answerJson(body)).toBe(JSON.stringify(body));
  });

  it('serialises a list held twice only once', () => {
    let calls = 0;
    const item = {
      toJSON() {
        calls += 1;
        return { id: 1 };
      },
    };
    const posts = [item];
    answerJson({ success: true, data: { posts }, posts });
    expect(calls).toBe(1);
    calls = 0;
    JSON.stringify({ success: true, data: { posts }, posts });
    expect(calls).toBe(2);
  });
});
