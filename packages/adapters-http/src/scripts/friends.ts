import { pageRequest } from '@plaza/domain';
import type { FriendService } from '@plaza/domain/social';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import type { PresenterContext } from '../presenters/context.js';
import { op, type Script } from '../http/operation.js';
import { PendingRequestItem, presentPendingRequest, presentUserListItem, UserListItem } from '../presenters/social.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';

/** GET's lists (contract §14): friends under `friends`, received requests under `pending_requests`, the asked one also under `data`. */
const FriendsPage = z.object({ friends: z.array(UserListItem), data: z.array(UserListItem), meta: PageMetaWire });
const PendingPage = z.object({ pending_requests: z.array(PendingRequestItem), data: z.array(PendingRequestItem), meta: PageMetaWire });
/** type=all (or none): the friends page, with the first page of received requests beside it. */
const FriendsAndPending = FriendsPage.extend({ pending_requests: z.array(PendingRequestItem) });

const MessageOnly = z.object({ message: z.string() });

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
        response: z.union([FriendsAndPending, FriendsPage, PendingPage]),
        handle: async (ctx) => {
          const page = pageRequest(ctx.query.page, ctx.query.per_page);
          const type = ctx.query.type || 'all';
          if (type === 'pending') {
            const r = await friends.pending(ctx.actor, page);
            const pending_requests = r.items.map((x) => presentPendingRequest(x, p));
            return { pending_requests, data: pending_requests, meta: r.meta };
          }
          const f = await friends.friends(ctx.actor, page);
          const list = f.users.map((u) => presentUserListItem(u, p));
          if (type === 'friends') return { friends: list, data: list, meta: f.meta };
          const r = await friends.pending(ctx.actor, page);
          return { friends: list, data: list, meta: f.meta, pending_requests: r.items.map((x) => presentPendingRequest(x, p)) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'send' },
        auth: 'required',
        body: z.object({ user_id: zId }),
        summary: 'Send a friend request (asking someone who already asked you accepts theirs)',
        response: z.object({ request_id: zWireId, status: z.enum(['pending', 'accepted']), message: z.string() }),
        handle: async (ctx) => {
          const r = await friends.send(ctx.actor, ctx.body.user_id);
          return {
            request_id: r.request_id,
            status: r.status,
            message: r.status === 'accepted' ? 'You are now friends' : 'Friend request sent',
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'accept' },
        auth: 'required',
        body: z.object({ request_id: zId }),
        summary: 'Accept a pending request addressed to you',
        response: MessageOnly,
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
        response: MessageOnly,
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
        response: z.object({ removed: z.boolean(), message: z.string() }),
        handle: async (ctx) => {
          const r = await friends.remove(ctx.actor, ctx.query.user_id);
          return { removed: r.removed, message: r.removed ? 'Friend removed' : 'You were not friends' };
        },
      }),
    ],
  };
}
