import { pageRequest } from '@plaza/domain';
import type { SanctionService } from '@plaza/domain/moderation';
import { z } from 'zod';
import { paginationQuery } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  BanItem,
  MyBan,
  MyWarning,
  presentBan,
  presentMyBan,
  presentMyWarning,
  presentSuspensionAsBan,
  presentWarning,
  WarningItem,
} from '../presenters/moderation.js';
import { PageMetaWire, zCount } from '../presenters/wire.js';

/** type=mine (contract §27): `is_banned` must be a JSON boolean, the app compares it with `true`. */
const Mine = z.object({ is_banned: z.boolean(), ban: MyBan.nullable(), warnings: z.array(MyWarning), warning_count: zCount });
/** type=all: the raw map of public warnings and bans (contract §27), a page of each. */
const All = z.object({ warnings: z.array(WarningItem), bans: z.array(BanItem), warnings_meta: PageMetaWire, bans_meta: PageMetaWire });

const OWN = new Set([undefined, '', 'mine']);

export function sanctionsScript(sanctions: SanctionService, p: PresenterContext): Script {
  return {
    name: 'sanctions',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ type: z.enum(['mine', 'all', '']).optional(), ...paginationQuery }),
        // A banned or suspended account reads why here (and only here): the app's ban screen.
        allowBanned: (query) => OWN.has(query.type),
        summary:
          'Own sanctions (type=mine, the default: is_banned, the ban in force, own warnings); type=all: public warnings and bans, newest first',
        response: z.union([Mine, All]),
        handle: async (ctx) => {
          const page = pageRequest(ctx.query.page, ctx.query.per_page);
          if (ctx.query.type === 'all') {
            const r = await sanctions.all(ctx.actor, page);
            return {
              warnings: r.warnings.map((v) => presentWarning(v, p)),
              bans: r.bans.map((v) => presentBan(v, p)),
              warnings_meta: r.warnings_meta,
              bans_meta: r.bans_meta,
            };
          }
          const mine = await sanctions.mine(ctx.actor, page);
          return {
            // A suspension is what admission refuses first: the ban screen shows it (docs/decisions/0105).
            is_banned: mine.ban !== null || mine.suspension !== null,
            ban: mine.suspension ? presentSuspensionAsBan(mine.suspension, p) : mine.ban ? presentMyBan(mine.ban, p) : null,
            warnings: mine.warnings.map((w) => presentMyWarning(w, p)),
            warning_count: mine.warning_count,
          };
        },
      }),
    ],
  };
}
