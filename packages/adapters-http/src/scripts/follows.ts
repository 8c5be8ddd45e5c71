import { pageRequest } from '@plaza/domain';
import type { FollowService } from '@plaza/domain/social';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentUserListItem, UserListItem } from '../presenters/social.js';
import { PageMetaWire } from '../presenters/wire.js';

/** `user_id=` may be sent empty, meaning the caller. */
const optionalUserId = z.union([z.literal('').transform(() => undefined), zId]).optional();

/** follow and unfollow answer a confirmation and the relation as it now stands. */
const Followed = z.object({ message: z.string(), is_following: z.literal(true) });
const Unfollowed = z.object({ message: z.string(), is_following: z.literal(false) });

/** Also the library's check (docs/decisions/0113). */
export const listQuery = z.object({
  user_id: optionalUserId,
  type: z.enum(['followers', 'following']).default('followers'),
  ...paginationQuery,
});

export function followsScript(follows: FollowService, p: PresenterContext): Script {
  return {
    name: 'follows',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: listQuery,
        summary: 'Followers or followed accounts of a user (me when user_id is absent or empty)',
        response: z.object({ data: z.array(UserListItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const page = await follows.list(ctx.actor, ctx.query.user_id, ctx.query.type, pageRequest(ctx.query.page, ctx.query.per_page));
          return { data: page.users.map((u) => presentUserListItem(u, p)), meta: page.meta };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({ user_id: zId }),
        summary: 'Follow a user; following twice is not an error',
        response: Followed,
        handle: async (ctx) => {
          const r = await follows.follow(ctx.actor, ctx.body.user_id);
          return { message: r.followed ? 'Followed' : 'Already following', is_following: true as const };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ user_id: zId }),
        summary: 'Unfollow a user; unfollowing a stranger is not an error',
        response: Unfollowed,
        handle: async (ctx) => {
          await follows.unfollow(ctx.actor, ctx.query.user_id);
          return { message: 'Unfollowed', is_following: false as const };
        },
      }),
    ],
  };
}
