import { pageRequest } from '@plaza/domain';
import { DISCOVER_TYPES, type DiscoverService } from '@plaza/domain/discovery';
import { z } from 'zod';
import { paginationQuery } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { DiscoverUserItem, presentDiscoverUser } from '../presenters/discover.js';
import { GroupItem, presentGroup } from '../presenters/groups.js';
import { PageListItem, presentPageListItem } from '../presenters/pages.js';

/** The kind of suggestions asked for, shared with the library's `discovery.discover` (docs/decisions/0130). */
export const discoverType = z.enum([...DISCOVER_TYPES, '']).optional();
const Discoveries = z.object({
  users: z.object({ new_users: z.array(DiscoverUserItem), same_cause: z.array(DiscoverUserItem), random: z.array(DiscoverUserItem) }),
  groups: z.array(GroupItem),
  pages: z.array(PageListItem),
});

/**
 * discover.php (contract §16): suggestions under `data` — accounts (new, same cause, random; never
 * the caller or accounts the caller follows), public groups not joined, pages neither run nor
 * followed. `type` narrows to one kind (the others are then empty); `page` pages the new and
 * same-cause accounts, the groups and the pages.
 */
export function discoverScript(discover: DiscoverService, p: PresenterContext): Script {
  return {
    name: 'discover',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ type: discoverType, ...paginationQuery }),
        summary:
          'Suggestions to follow and join: data.users {new_users, same_cause, random}, data.groups, data.pages; type=all (default), users, groups or pages',
        response: z.object({ data: Discoveries, type: z.enum(DISCOVER_TYPES) }),
        handle: async (ctx) => {
          const type = ctx.query.type || 'all';
          const found = await discover.discover(ctx.actor, type, pageRequest(ctx.query.page, ctx.query.per_page));
          const users = (list: typeof found.users.new_users) => list.map((u) => presentDiscoverUser(u, p));
          return {
            data: {
              users: {
                new_users: users(found.users.new_users),
                same_cause: users(found.users.same_cause),
                random: users(found.users.random),
              },
              groups: found.groups.map((g) => presentGroup(g, p)),
              pages: found.pages.map((v) => presentPageListItem(v, p)),
            },
            type,
          };
        },
      }),
    ],
  };
}
