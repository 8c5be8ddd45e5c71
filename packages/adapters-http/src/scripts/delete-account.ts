import type { AccountDeletionService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { wireTime, zTimestamp, zWireId } from '../presenters/wire.js';

/** Also the library's check (docs/decisions/0113). */
export const confirmQuery = z.object({ token: z.string().min(1, 'is required').max(512) });

export function deleteAccountScript(deletion: AccountDeletionService, p: PresenterContext): Script {
  return {
    name: 'delete_account',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({ password: z.string().min(1, 'is required').max(200) }),
        summary:
          'Ask for the deletion of the account: a wrong password is a 403; else a single-use confirmation link (24 hours) is e-mailed',
        response: z.object({ message: z.string(), expires_at: zTimestamp }),
        handle: async (ctx) => {
          const { expires_at } = await deletion.request(ctx.actor, ctx.body.password);
          return { message: 'Check your e-mail: the link in it deletes the account.', expires_at: wireTime(p, expires_at) };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['token'] },
        auth: 'none',
        query: confirmQuery,
        summary: 'The e-mailed confirmation link: deletes the account, its sessions and its content (docs/decisions/0090)',
        response: z.object({ message: z.string(), user_id: zWireId }),
        handle: async (ctx) => {
          const { user_id } = await deletion.confirm(ctx.query.token);
          return { message: 'Your account has been deleted.', user_id };
        },
      }),
    ],
  };
}
