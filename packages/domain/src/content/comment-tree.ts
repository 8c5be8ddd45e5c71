import type { AuthorInfo, CommentRecord, CommentView } from './model.js';
import { type ListPage, listPage, type PageRequest } from '../shared/pagination.js';

/**
 * A thread's depth limit: replies are read and shown down to MAX_REPLY_DEPTH + 1 levels below their
 * root, no deeper. A thread that deep is a loop of bots, not a conversation.
 */
export const MAX_REPLY_DEPTH = 50;

/** A stored comment of any thread table: what the tree is built from. */
interface ThreadComment {
  id: number;
  parent_id: number | null;
  user_id: number;
  /** A remote actor's reply: its author is found by this URL in `remoteAuthors`. */
  remote_actor_url?: string | null;
}

/** The reads of a post's thread (posts' and group posts' comment repositories both offer them). */
export interface ThreadReads<C extends ThreadComment> {
  roots(postId: number, page: PageRequest): Promise<C[]>;
  replies(postId: number, parentIds: number[]): Promise<C[]>;
}

/**
 * A page of the post's root comments and every reply below them, down to MAX_REPLY_DEPTH: one read
 * for the roots, then one per level of the tree (never one per comment).
 */
export async function readThreadPage<C extends ThreadComment>(
  reads: ThreadReads<C>,
  postId: number,
  req: PageRequest,
): Promise<{ page: ListPage<C>; replies: C[] }> {
  const page = listPage(await reads.roots(postId, req), req);
  const replies: C[] = [];
  let level = page.items.map((c) => c.id);
  for (let depth = 0; level.length > 0 && depth <= MAX_REPLY_DEPTH; depth++) {
    const found = await reads.replies(postId, level);
    replies.push(...found);
    level = found.map((c) => c.id);
  }
  return { page, replies };
}

/** What the tree needs of each comment beyond the rows: its authors, the viewer's reactions, and the comment as the client sees it. */
export interface ThreadViewParts<C extends ThreadComment> {
  authors: ReadonlyMap<number, AuthorInfo>;
  /** Remote authors by actor URL (comments of posts only). */
  remoteAuthors?: ReadonlyMap<string, AuthorInfo>;
  reacted: ReadonlySet<number>;
  record(comment: C): CommentRecord;
}

/**
 * The page's roots as trees of views, replies oldest first under their parent. A comment whose author
 * is gone (an erased account's row read in a race) is left out with the replies below it. The depth is
 * what `readThreadPage` read: the tree holds every reply it is given.
 */
export function commentTrees<C extends ThreadComment>(page: ListPage<C>, replies: C[], parts: ThreadViewParts<C>): ListPage<CommentView> {
  const childrenOf = new Map<number, C[]>();
  for (const r of replies) {
    const siblings = childrenOf.get(r.parent_id!);
    if (siblings) siblings.push(r);
    else childrenOf.set(r.parent_id!, [r]);
  }
  const build = (c: C): CommentView | null => {
    const author = c.remote_actor_url ? parts.remoteAuthors?.get(c.remote_actor_url) : parts.authors.get(c.user_id);
    if (!author) return null;
    return { comment: parts.record(c), author, has_reacted: parts.reacted.has(c.id), replies: views(childrenOf.get(c.id) ?? []) };
  };
  const views = (comments: C[]) => comments.map(build).filter((v): v is CommentView => v !== null);
  return { ...page, items: views(page.items) };
}
