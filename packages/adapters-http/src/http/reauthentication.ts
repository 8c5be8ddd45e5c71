import type { ReauthenticationProof } from '@plaza/domain/accounts';
import { z } from 'zod';

/**
 * What a request that removes a protection may carry beyond its token (docs/decisions/0112): the
 * password, and for turning two-factor off a TOTP or recovery code. Without them the bearer token
 * must be in sudo mode (a recent login).
 */
export const reauthenticationFields = {
  password: z.string().max(200).optional(),
  code: z
    .union([
      z.string().max(32),
      z
        .number()
        .int()
        .min(0)
        .max(999_999)
        .transform((n) => String(n).padStart(6, '0')),
    ])
    .optional(),
};

/** The proof of the body's fields and of the request's bearer token. */
export function reauthenticationProof(
  headers: { authorization?: string | string[] | undefined },
  body: { password?: string; code?: string },
): ReauthenticationProof {
  const session = /^Bearer\s+(\S+)$/i.exec(String(headers.authorization ?? ''))?.[1] ?? null;
  return { session, password: body.password ?? null, code: body.code ?? null };
}
