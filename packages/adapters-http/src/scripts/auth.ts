import { type Actor, Conflict, Invalid, Unauthenticated } from '@plaza/domain';
import type { AuthService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type OperationContext, type Refusal, refuse, type Script } from '../http/operation.js';
import { IssuedTokenPayload, presentIssuedToken, presentUserSummary, UserSummary } from '../presenters/user.js';
import type { PresenterContext } from '../presenters/context.js';
import { zWireId } from '../presenters/wire.js';

const credentials = z.object({
  username: z.string().min(1, 'is required').max(191),
  password: z.string().min(1, 'is required').max(200),
  totp: z.union([z.string().max(16), z.number().int().transform(String)]).nullish(),
});

const registration = z.object({
  username: z.string().max(64),
  email: z.string().max(191),
  password: z.string().max(200),
  cause: z.string().max(255).nullish(),
});

const tokenInBody = z.object({ token: z.string().max(512).optional() });

/** The answer of the calls whose only payload is a human confirmation. */
const MessageOnly = z.object({ message: z.string() });

/**
 * A login the server refuses with a 200 and `success: false` (docs/decisions/0002), in the error body's
 * shape: wrong credentials, or the two-factor challenge the client recognises by `two_factor_required`.
 */
const LoginRefusal = z.discriminatedUnion('code', [
  z.object({ code: z.literal('invalid_credentials'), error: z.string(), message: z.string() }),
  z.object({ code: z.literal('two_factor_required'), two_factor_required: z.literal(true), error: z.string(), message: z.string() }),
]);

type LoginOutcome = z.input<typeof IssuedTokenPayload> | Refusal<z.input<typeof LoginRefusal>>;

/**
 * A registration the server refuses with a 200 and `success: false` (docs/decisions/0010): the mobile
 * client shows `message` only on a 200 or 201. `code` says which rule: `invalid_username`,
 * `invalid_email`, `password_too_short`, `password_too_long`, `username_taken`, `email_taken`.
 */
const RegisterRefusal = z.object({
  code: z.string(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ field: z.string(), problem: z.string() })).optional(),
});
const Registered = z.object({ message: z.string(), user_id: zWireId, user: UserSummary });

/** The token to refresh or revoke: the bearer header, else a `token` field of the body. */
function presentedToken(ctx: OperationContext<unknown, { token?: string }, Actor | null>): string {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.request.headers.authorization ?? ''));
  const token = m?.[1] ?? ctx.body.token;
  if (!token) throw new Unauthenticated('Send the token as Authorization: Bearer <token>', 'missing_token');
  return token;
}

export function authScript(auth: AuthService, p: PresenterContext): Script {
  const login = async (ctx: OperationContext<unknown, z.output<typeof credentials>, Actor | null>): Promise<LoginOutcome> => {
    try {
      const result = await auth.login({ login: ctx.body.username, password: ctx.body.password, totp: ctx.body.totp ?? null });
      if (result.kind === 'two_factor_required') {
        // The client only shows its code field on a 200 carrying this flag.
        const message = ctx.body.totp ? 'Invalid two-factor code' : 'Two-factor code required';
        return refuse({ code: 'two_factor_required', two_factor_required: true, error: message, message });
      }
      return presentIssuedToken(result.issued, p);
    } catch (error) {
      // Wrong credentials answer 200 with success false: the only failure the mobile login screen
      // displays cleanly (docs/decisions/0002-login-failures-answer-200.md).
      if (error instanceof Unauthenticated && error.code === 'invalid_credentials') {
        return refuse({ code: 'invalid_credentials', error: error.message, message: error.message });
      }
      throw error;
    }
  };
  return {
    name: 'auth',
    operations: [
      op({ method: 'POST', auth: 'none', rateLimit: 'auth', body: credentials, summary: 'Log in with username or e-mail, password and optional TOTP code', response: IssuedTokenPayload, refusal: LoginRefusal, handle: login }),
      op({ method: 'POST', select: { action: 'login' }, auth: 'none', rateLimit: 'auth', body: credentials, summary: 'Log in (explicit action form)', response: IssuedTokenPayload, refusal: LoginRefusal, handle: login }),
      op({
        method: 'POST',
        select: { action: 'register' },
        auth: 'none',
        rateLimit: 'auth',
        body: registration,
        summary: 'Create an account; a refused one (invalid or taken name, e-mail or password) answers 200 with success false',
        response: Registered,
        refusal: RegisterRefusal,
        handle: async (ctx): Promise<z.input<typeof Registered> | Refusal<z.input<typeof RegisterRefusal>>> => {
          try {
            const user = await auth.register(ctx.body);
            return { message: 'Account created', user_id: user.id, user: presentUserSummary(user) };
          } catch (error) {
            // The rules of the domain, and a name or address taken meanwhile by a concurrent registration.
            if (error instanceof Invalid || error instanceof Conflict) {
              return refuse({ code: error.code, error: error.message, message: error.message, ...(error.details.length ? { details: error.details } : {}) });
            }
            throw error;
          }
        },
      }),
      op({
        method: 'POST',
        select: { action: 'refresh' },
        auth: 'none',
        rateLimit: 'auth',
        body: tokenInBody,
        summary: 'Exchange the presented token for a new one; the old one stops working',
        response: IssuedTokenPayload,
        handle: async (ctx) => presentIssuedToken(await auth.refresh(presentedToken(ctx)), p),
      }),
      op({
        method: 'POST',
        select: { action: 'revoke' },
        auth: 'none',
        rateLimit: 'auth',
        body: tokenInBody,
        summary: 'Revoke the presented token',
        response: MessageOnly,
        handle: async (ctx) => {
          await auth.revoke(presentedToken(ctx));
          return { message: 'Token revoked' };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'forgot_password' },
        auth: 'none',
        rateLimit: 'auth',
        body: z.object({ email: z.string().min(1, 'is required').max(191) }),
        summary: 'Send a password-reset code by e-mail (same answer whether or not the account exists)',
        response: MessageOnly,
        handle: async (ctx) => {
          await auth.forgotPassword(ctx.body.email);
          return { message: 'If an account uses this address, a reset code has been sent to it.' };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'reset_password' },
        auth: 'none',
        rateLimit: 'auth',
        body: z.object({ token: z.string().min(1, 'is required').max(512), password: z.string().max(200) }),
        summary: 'Set a new password (at least 8 characters) with the code received by e-mail',
        response: MessageOnly,
        handle: async (ctx) => {
          await auth.resetPassword(ctx.body);
          return { message: 'Password changed; sign in with the new password.' };
        },
      }),
    ],
  };
}
