import { Unauthenticated } from '@plaza/domain';
import type { PasswordService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type Script } from '../http/operation.js';
import { zCount } from '../presenters/wire.js';

/** Also the library's check of `passwords.change` (docs/decisions/0113). */
export const changePasswordBody = z.object({
  current_password: z.string().min(1, 'is required').max(200),
  new_password: z.string().max(200, 'must be at most 200 characters'),
});

export function changePasswordScript(passwords: PasswordService): Script {
  return {
    name: 'change_password',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        body: changePasswordBody,
        summary: 'Change the password (at least 8 characters), proving the current one; every other session ends',
        response: z.object({ message: z.string(), revoked_sessions: zCount }),
        handle: async (ctx) => {
          // The session that asks stays signed in: it is the bearer token of this request.
          const token = /^Bearer\s+(\S+)$/i.exec(String(ctx.request.headers.authorization ?? ''))?.[1];
          if (!token) throw new Unauthenticated('Send the token as Authorization: Bearer <token>', 'missing_token');
          const { revoked_sessions } = await passwords.change(ctx.actor, ctx.body, token);
          return { message: 'Password changed; your other sessions were signed out.', revoked_sessions };
        },
      }),
    ],
  };
}
