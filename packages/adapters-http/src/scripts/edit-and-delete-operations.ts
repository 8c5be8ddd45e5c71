import type { Actor, RateLimitGroup } from '@plaza/domain';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { type AnyOperation, type Infer, op, type Selector } from '../http/operation.js';
import { zWireId } from '../presenters/wire.js';

/**
 * Editing and deleting one's posts and comments, on the wall, in groups and on pages: each surface
 * names the row its own way (query or body, `id` or `post_id`), but answers alike.
 */

/** PUT: edit a post or comment; answers a confirmation with the item as it now is under `data`. */
export function editOperation<QS extends z.ZodObject | undefined, BS extends z.ZodObject, I extends z.ZodType>(o: {
  select?: Selector;
  rateLimit: RateLimitGroup;
  query?: QS;
  body: BS;
  summary: string;
  /** The schema of the edited item. */
  item: I;
  message: string;
  edit: (actor: Actor, body: Infer<BS>, query: Infer<QS>) => Promise<z.input<I>>;
}): AnyOperation {
  return op<QS, BS>({
    method: 'PUT',
    ...(o.select ? { select: o.select } : {}),
    auth: 'required',
    rateLimit: o.rateLimit,
    query: o.query,
    body: o.body,
    summary: o.summary,
    response: z.object({ message: z.string(), data: o.item }),
    handle: async (ctx) => ({ message: o.message, data: await o.edit(ctx.actor, ctx.body, ctx.query) }),
  });
}

/**
 * DELETE ?id=: delete a post or comment with what hangs off it, and confirm; `answersId` also answers
 * the id (group_posts.php and group_comments.php, contract §21).
 */
export function deleteByIdOperation(o: {
  rateLimit: RateLimitGroup;
  summary: string;
  message: string;
  answersId?: boolean;
  remove: (actor: Actor, id: number) => Promise<unknown>;
}): AnyOperation {
  return op({
    method: 'DELETE',
    auth: 'required',
    rateLimit: o.rateLimit,
    query: z.object({ id: zId }),
    summary: o.summary,
    response: o.answersId ? z.object({ message: z.string(), id: zWireId }) : z.object({ message: z.string() }),
    handle: async (ctx) => {
      await o.remove(ctx.actor, ctx.query.id);
      return o.answersId ? { message: o.message, id: ctx.query.id } : { message: o.message };
    },
  });
}
