import { pageRequest, type FriendService } from '@plaza/domain';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import type { PresenterContext } from '../presenters/context.js';
import { op, type Script } from '../http/operation.js';
import { presentUserListItem } from '../presenters/social.js';

/** Every friends.php success is a 200: the client refuses 201. */
export function friendsScript(friends: FriendService, p: PresenterContext): Script {
  return {
    name: 'friends',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ type: z.enum(['all', 'friends', 'pending', '']).optional(), ...paginationQuery }),
        summary: 'Friends (type=friends), pending received requests (type=pending), or both',
        handle: async (ctx) => {
          const page = pageRequest(ctx.query.page, ctx.query.per_page);
          const type = ctx.query.type || 'all';
          const out: Record<string, unknown> = {};
          if (type !== 'pending') {
            const f = await friends.friends(ctx.actor, page);
            out.friends = f.users.map((u) => presentUserListItem(u, p));
            out.data = out.friends;
            out.meta = f.meta;
          }
          if (type !== 'friends') {
            const r = await friends.pending(ctx.actor, page);
            out.pending_requests = r.items.map((x) => ({ ...presentUserListItem(x.user, p), request_id: x.request_id, created_at: p.formatTime(x.created_at) }));
            if (type === 'pending') {
              out.data = out.pending_requests;
              out.meta = r.meta;
            }
          }
          return out;
        },
      }),
      op({
        method: 'POST',
        select: { action: 'send' },
        auth: 'required',
        body: z.object({ user_id: zId }),
        summary: 'Send a friend request (asking someone who already asked you accepts theirs)',
        handle: async (ctx) => {
          const r = await friends.send(ctx.actor, ctx.body.user_id);
          return { request_id: r.request_id, status: r.status, message: r.status === 'accepted' ? 'You are now friends' : 'Friend request sent' };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'accept' },
        auth: 'required',
        body: z.object({ request_id: zId }),
        summary: 'Accept a pending request addressed to you',
        handle: async (ctx) => {
          await friends.accept(ctx.actor, ctx.body.request_id);
          return { message: 'Friend request accepted' };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'reject' },
        auth: 'required',
        body: z.object({ request_id: zId }),
        summary: 'Reject a pending request addressed to you',
        handle: async (ctx) => {
          await friends.reject(ctx.actor, ctx.body.request_id);
          return { message: 'Friend request rejected' };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ user_id: zId }),
        summary: 'Remove a friend (or withdraw your pending request)',
        handle: async (ctx) => {
          const r = await friends.remove(ctx.actor, ctx.query.user_id);
          return { removed: r.removed, message: r.removed ? 'Friend removed' : 'You were not friends' };
        },
      }),
    ],
  };
}
