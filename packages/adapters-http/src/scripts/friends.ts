import { type Actor, NotFound, type PageRequest, pageMeta, pageRequest } from '@plaza/domain';
import type { FriendService, OutsideFollowRequests } from '@plaza/domain/social';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import type { PresenterContext } from '../presenters/context.js';
import { op, type Script } from '../http/operation.js';
import { PendingRequestItem, presentPendingRequest, presentUserListItem, UserListItem } from '../presenters/social.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';
import { OutsideRequestItem, presentOutsideRequest } from '../presenters/outside-request.js';
import { concatPages, type PagedSource } from '../http/concat-pages.js';

/** GET's lists (contract §14): friends under `friends`, received requests under `pending_requests`, the asked one also under `data`. */
const FriendsPage = z.object({ friends: z.array(UserListItem), data: z.array(UserListItem), meta: PageMetaWire });
/** A received request: a local user's, or a remote account's follow request (docs/decisions/0210). */
const PendingItem = z.union([PendingRequestItem, OutsideRequestItem]);
const PendingPage = z.object({ pending_requests: z.array(PendingItem), data: z.array(PendingItem), meta: PageMetaWire });
/** type=all (or none): the friends page, with the first page of received requests beside it. */
const FriendsAndPending = FriendsPage.extend({ pending_requests: z.array(PendingItem) });
/** A local request's id, or a remote follow request's negated (the pending list's `request_id`). */
const zRequestId = z.union([zId, z.number().int().negative()]);

const MessageOnly = z.object({ message: z.string() });

type PendingWire = z.input<typeof PendingItem>;

/**
 * Every friends.php success is a 200: the client refuses 201. `outside` are the follow requests from
 * outside the instance (remote Follows of a private account, docs/decisions/0210): listed before the
 * local requests, answered with their negative `request_id`; none when federation is off.
 */
export function friendsScript(friends: FriendService, p: PresenterContext, outside: readonly OutsideFollowRequests[] = []): Script {
  const sources = (actor: Actor): PagedSource<PendingWire>[] => [
    ...outside.map((source) => async (page: PageRequest) => {
      const r = await source.pending(actor, page);
      return { total: r.total, items: r.items.map((x) => presentOutsideRequest(x, p)) };
    }),
    async (page: PageRequest) => {
      const r = await friends.pending(actor, page);
      return { total: r.meta.total, items: r.items.map((x) => presentPendingRequest(x, p)) };
    },
  ];
  const pending = async (actor: Actor, page: PageRequest) => {
    const r = await concatPages(sources(actor), page);
    return { items: r.items, meta: pageMeta(page, r.total) };
  };
  /** A negative id is a remote request: the source that knows it answers (there is one: federation's). */
  const answer = async (actor: Actor, requestId: number, how: 'accept' | 'reject') => {
    if (requestId > 0) return friends[how](actor, requestId);
    const source = outside[0];
    if (!source) throw new NotFound('Friend request not found', 'friend_request_not_found');
    return source[how](actor, -requestId);
  };
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
            const r = await pending(ctx.actor, page);
            return { pending_requests: r.items, data: r.items, meta: r.meta };
          }
          const f = await friends.friends(ctx.actor, page);
          const list = f.users.map((u) => presentUserListItem(u, p));
          if (type === 'friends') return { friends: list, data: list, meta: f.meta };
          const r = await pending(ctx.actor, page);
          return { friends: list, data: list, meta: f.meta, pending_requests: r.items };
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
        body: z.object({ request_id: zRequestId }),
        summary: 'Accept a pending request addressed to you (a negative id: a remote follow request, answered with Accept)',
        response: MessageOnly,
        handle: async (ctx) => {
          await answer(ctx.actor, ctx.body.request_id, 'accept');
          return { message: 'Friend request accepted' };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'reject' },
        auth: 'required',
        body: z.object({ request_id: zRequestId }),
        summary: 'Reject a pending request addressed to you (a negative id: a remote follow request, answered with Reject)',
        response: MessageOnly,
        handle: async (ctx) => {
          await answer(ctx.actor, ctx.body.request_id, 'reject');
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
