import { EDITABLE_PROFILE_FIELDS, PROFILE_FIELD_MAX_LENGTH, type ProfilePatch, type ProfileService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { zId, zText } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { reauthenticationFields, reauthenticationProof } from '../http/reauthentication.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentProfile, Profile, type FederationIdentity } from '../presenters/user.js';

/**
 * Each field up to the domain's limit, which fits its column; a new `email` with the `password` (or a
 * recent login: docs/decisions/0112).
 */
export const profilePatch = z
  .object({
    ...Object.fromEntries(EDITABLE_PROFILE_FIELDS.map((f) => [f, zText(PROFILE_FIELD_MAX_LENGTH[f]).nullable().optional()])),
    email: zText(191).optional(),
    password: reauthenticationFields.password,
  })
  .strip() as z.ZodType<ProfilePatch & { email?: string; password?: string }>;

export function usersScript(profiles: ProfileService, fed: FederationIdentity, p: PresenterContext): Script {
  const present = (view: Awaited<ReturnType<ProfileService['view']>>) => presentProfile(view, fed, p);
  return {
    name: 'users',
    operations: [
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Profile of a user',
        response: Profile,
        handle: async (ctx) => present(await profiles.view(ctx.actor, ctx.query.id)),
      }),
      op({
        method: 'GET',
        auth: 'required',
        summary: 'Own profile',
        response: Profile,
        handle: async (ctx) => present(await profiles.view(ctx.actor)),
      }),
      op({
        method: 'PUT',
        auth: 'required',
        body: profilePatch,
        summary:
          'Update own profile; only the keys sent change, null clears a field. A new `email` needs `password`, or a login of the last 10 minutes: else 403 reauthentication_required; 429 reauthentication_locked after five wrong passwords',
        response: Profile,
        handle: async (ctx) => {
          const { password, ...patch } = ctx.body;
          return present(await profiles.update(ctx.actor, patch, reauthenticationProof(ctx.request.headers, { password })));
        },
      }),
    ],
  };
}
