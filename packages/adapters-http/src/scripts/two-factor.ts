import type { TwoFactorService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type Script } from '../http/operation.js';
import { reauthenticationFields, reauthenticationProof } from '../http/reauthentication.js';
import { zCount } from '../presenters/wire.js';

/** Contract §4: `enabled` is read as a typed bool; the secret and its URL only while two-factor is off. */
const Status = z.object({
  enabled: z.boolean(),
  secret: z
    .string()
    .regex(/^[A-Z2-7]+=*$/)
    .optional(),
  otpauth_url: z.string().startsWith('otpauth://totp/').optional(),
  recovery_codes_remaining: zCount,
});

const RecoveryCodes = z.array(z.string().regex(/^[a-z2-9]{5}-[a-z2-9]{5}$/));

export const enableBody = z.object({
  code: z.union([
    z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'must be the 6-digit code of the authenticator app'),
    z
      .number()
      .int()
      .min(0)
      .max(999_999)
      .transform((n) => String(n).padStart(6, '0')),
  ]),
});

/** The password and code of the operations that remove a protection; also the library's check (docs/decisions/0113). */
export const proofBody = z.object(reauthenticationFields);

export function twoFactorScript(twoFactor: TwoFactorService): Script {
  return {
    name: 'two_factor',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        summary: 'Two-factor status; while it is off, the set-up secret (base32) and its otpauth:// URL',
        response: Status,
        handle: async (ctx) => {
          const s = await twoFactor.status(ctx.actor);
          return {
            enabled: s.enabled,
            ...(s.secret ? { secret: s.secret, otpauth_url: s.otpauth_url! } : {}),
            recovery_codes_remaining: s.recovery_codes_remaining,
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'enable' },
        auth: 'required',
        body: enableBody,
        summary: 'Turn two-factor on with a first code of the set-up secret; answers the recovery codes, shown this once',
        response: z.object({ message: z.string(), enabled: z.literal(true), recovery_codes: RecoveryCodes }),
        handle: async (ctx) => {
          const { recovery_codes } = await twoFactor.enable(ctx.actor, ctx.body.code);
          return {
            message: 'Two-factor authentication is on. Keep the recovery codes somewhere safe: each works once.',
            enabled: true as const,
            recovery_codes,
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'regenerate_recovery_codes' },
        auth: 'required',
        body: z.object({ password: reauthenticationFields.password }),
        summary:
          'A new set of recovery codes, replacing the previous ones, shown this once. Needs `password`, or a login (with two-factor) of the last 10 minutes: else 403 reauthentication_required; 429 reauthentication_locked after five wrong passwords',
        response: z.object({ message: z.string(), recovery_codes: RecoveryCodes }),
        handle: async (ctx) => {
          const { recovery_codes } = await twoFactor.regenerateRecoveryCodes(
            ctx.actor,
            reauthenticationProof(ctx.request.headers, ctx.body),
          );
          return {
            message: 'New recovery codes: the previous ones no longer work. Keep these somewhere safe: each works once.',
            recovery_codes,
          };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        body: proofBody,
        summary:
          'Turn two-factor off; the account owner is told by e-mail. Needs `password` and `code` (TOTP or recovery code), or a login with two-factor of the last 10 minutes (the app sends no body): else 403 reauthentication_required; 429 reauthentication_locked after five wrong proofs',
        response: z.object({ message: z.string(), enabled: z.literal(false) }),
        handle: async (ctx) => {
          const { disabled } = await twoFactor.disable(ctx.actor, reauthenticationProof(ctx.request.headers, ctx.body));
          return {
            message: disabled ? 'Two-factor authentication is off' : 'Two-factor authentication was already off',
            enabled: false as const,
          };
        },
      }),
    ],
  };
}
