import { describe, expect, it } from 'vitest';
import { pageRequest } from '../shared/pagination.js';
import { commentTrees, MAX_REPLY_DEPTH, readThreadPage, type ThreadReads } from './comment-tree.js';
import type { AuthorInfo, CommentRecord, CommentView } from './model.js';

interface Row {
  id: number;
  parent_id: number | null;
  user_id: number;
}

/** A thread held in memory, counting its reads: the tree must cost one read per level, not per comment. */
function thread(rows: Row[]) {
  const reads = { roots: 0, replies: 0 };
  const source: ThreadReads<Row> = {
    roots: async (_postId, req) => {
      reads.roots += 1;
      const roots = rows.filter((r) => r.parent_id === null);
      return roots.slice((req.page - 1) * req.perPage, req.page * req.perPage + 1);
    },
    replies: async (_postId, parentIds) => {
      reads.replies += 1;
      return rows.filter((r) => r.parent_id !== null && parentIds.includes(r.parent_id));
    },
  };
  return { source, reads };
}

const author = (id: number): AuthorInfo => ({ id, username: `u${id}` }) as AuthorInfo;
const record = (r: Row): CommentRecord => ({ id: r.id, parent_id: r.parent_id, user_id: r.user_id }) as CommentRecord;
const shape = (views: CommentView[]): unknown[] =>
  views.map((v) => ({ id: v.comment.id, reacted: v.has_reacted, replies: shape(v.replies) }));

describe('comment trees', () => {
  it('reads a page of roots with every reply below them, one read per level, and builds the trees', async () => {
    // 1 ← 2 ← 3 and 1 ← 4; root 5 has no reply; root 6 is on the next page.
    const rows: Row[] = [
      { id: 1, parent_id: null, user_id: 10 },
      { id: 2, parent_id: 1, user_id: 11 },
      { id: 3, parent_id: 2, user_id: 10 },
      { id: 4, parent_id: 1, user_id: 11 },
      { id: 5, parent_id: null, user_id: 11 },
      { id: 6, parent_id: null, user_id: 10 },
    ];
    const { source, reads } = thread(rows);
    const { page, replies } = await readThreadPage(source, 7, pageRequest(1, 2));
    expect(reads).toEqual({ roots: 1, replies: 3 });
    expect(page.has_more).toBe(true);
    const trees = commentTrees(page, replies, { authors: new Map([10, 11].map((id) => [id, author(id)])), reacted: new Set([3]), record });
    expect(shape(trees.items)).toEqual([
      {
        id: 1,
        reacted: false,
        replies: [
          { id: 2, reacted: false, replies: [{ id: 3, reacted: true, replies: [] }] },
          { id: 4, reacted: false, replies: [] },
        ],
      },
      { id: 5, reacted: false, replies: [] },
    ]);
  });

  it('leaves out a comment whose author is gone, with the replies below it', async () => {
    const rows: Row[] = [
      { id: 1, parent_id: null, user_id: 10 },
      { id: 2, parent_id: 1, user_id: 99 },
      { id: 3, parent_id: 2, user_id: 10 },
      { id: 4, parent_id: null, user_id: 99 },
    ];
    const { source } = thread(rows);
    const { page, replies } = await readThreadPage(source, 7, pageRequest(1, 20));
    const trees = commentTrees(page, replies, { authors: new Map([[10, author(10)]]), reacted: new Set(), record });
    expect(shape(trees.items)).toEqual([{ id: 1, reacted: false, replies: [] }]);
  });

  it(`reads and shows replies down to ${MAX_REPLY_DEPTH + 1} levels below their root, no deeper`, async () => {
    const depth = MAX_REPLY_DEPTH + 5;
    const rows: Row[] = Array.from({ length: depth + 1 }, (_, i) => ({ id: i + 1, parent_id: i === 0 ? null : i, user_id: 10 }));
    const { source, reads } = thread(rows);
    const { page, replies } = await readThreadPage(source, 7, pageRequest(1, 20));
    expect(reads.replies).toBe(MAX_REPLY_DEPTH + 1);
    const trees = commentTrees(page, replies, { authors: new Map([[10, author(10)]]), reacted: new Set(), record });
    let levels = 0;
    for (let v = trees.items[0]; v.replies.length > 0; v = v.replies[0]) levels += 1;
    expect(levels).toBe(MAX_REPLY_DEPTH + 1);
  });
});
