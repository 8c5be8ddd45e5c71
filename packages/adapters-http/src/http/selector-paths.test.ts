import { describe, expect, it } from 'vitest';
import { selectorPairs, selectorPathOf } from './selector-paths.js';

describe('selector paths', () => {
  it('write a selector as path segments, the path pattern last', () => {
    expect(selectorPathOf({})).toBe('');
    expect(selectorPathOf({ action: 'send' })).toBe('/action/send');
    expect(selectorPathOf({ has: ['user_id'] })).toBe('/user_id/{user_id}');
    expect(selectorPathOf({ path: ':id/members/:user_id' })).toBe('/path/{id}/members/{user_id}');
    expect(selectorPathOf({ path: '' })).toBe('');
    expect(selectorPathOf({ action: 'go', has: ['x', 'y'], path: 'tree/:id' })).toBe('/action/go/x/{x}/y/{y}/path/tree/{id}');
  });

  it('read back the query pairs they stand for', () => {
    expect(selectorPairs('action/send')).toEqual([['action', 'send']]);
    expect(selectorPairs('user_id/7')).toEqual([['user_id', '7']]);
    expect(selectorPairs('path/5/members/9')).toEqual([['path', '5/members/9']]);
    expect(selectorPairs('action/go/x/1/path/tree/3')).toEqual([
      ['action', 'go'],
      ['x', '1'],
      ['path', 'tree/3'],
    ]);
    expect(selectorPairs('q/a%20b')).toEqual([['q', 'a b']]);
  });

  it('refuse what is not a sequence of pairs', () => {
    for (const rest of ['action', 'action/', 'path', 'path/', 'path/5//x', 'a/1/a/2', '/x/1', 'q/%E0%A4%A']) {
      expect(selectorPairs(rest), rest).toBeNull();
    }
  });
});
