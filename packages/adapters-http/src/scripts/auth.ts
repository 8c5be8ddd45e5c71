import { Unauthenticated, type Actor, type AuthService, type IssuedToken } from '@plaza/domain';
import { z } from 'zod';
import { op, type OperationContext, type Script } from '../http/operation.js';
import { presentUserSummary } from '../presenters/user.js';
import type { PresenterContext } from '../presenters/context.js';

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

function presentIssued(issued: IssuedToken, p: PresenterContext) {
  return {
    token: issued.token,
    token_type: 'Bearer',
    expires_at: p.formatTime(issued.expires_at),
    user_id: issued.user.id,
    user: { ...presentUserSummary(issued.user), user_id: issued.user.id },
  };
}

/** The token to refresh or revoke: the bearer header, else a `token` field of the body. */
function presentedToken(ctx: OperationContext<unknown, { token?: string }, Actor | null>): string {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.request.headers.authorization ?? ''));
  const token = m?.[1] ?? ctx.body.token;
  if (!token) throw new Unauthenticated('Send the token as Authorization: Bearer <token>', 'missing_token');
  return token;
}

export function authScript(auth: AuthService, p: PresenterContext): Script {
  const login = async (ctx: OperationContext<unknown, z.output<typeof credentials>, Actor | null>) => {
    try {
      const result = await auth.login({ login: ctx.body.username, password: ctx.body.password, totp: ctx.body.totp ?? null });
      if (result.kind === 'two_factor_required') {
        // The client only shows its code field on a 200 carrying this flag.
        const message = ctx.body.totp ? 'Invalid two-factor code' : 'Two-factor code required';
        return { success: false, two_factor_required: true, error: message, message, code: 'two_factor_required' };
      }
      return presentIssued(result.issued, p);
    } catch (error) {
      // Wrong credentials answer 200 with success false: the only failure the mobile login screen
      // displays cleanly (docs/decisions/0002-login-failures-answer-200.md).
      if (error instanceof Unauthenticated && error.code === 'invalid_credentials') {
        return { success: false, error: error.message, message: error.message, code: error.code };
      }
      throw error;
    }
  };
  return {
    name: 'auth',
    operations: [
      op({ method: 'POST', auth: 'none', rateLimit: 'auth', body: credentials, summary: 'Log in with username or e-mail, password and optional TOTP code', handle: login }),
      op({ method: 'POST', select: { action: 'login' }, auth: 'none', rateLimit: 'auth', body: credentials, summary: 'Log in (explicit action form)', handle: login }),
      op({
        method: 'POST',
        select: { action: 'register' },
        auth: 'none',
        rateLimit: 'auth',
        body: registration,
        summary: 'Create an account',
        handle: async (ctx) => {
          const user = await auth.register(ctx.body);
          return { message: 'Account created', user_id: user.id, user: presentUserSummary(user) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'refresh' },
        auth: 'none',
        rateLimit: 'auth',
        body: tokenInBody,
        summary: 'Exchange the presented token for a new one; the old one stops working',
        handle: async (ctx) => presentIssued(await auth.refresh(presentedToken(ctx)), p),
      }),
      op({
        method: 'POST',
        select: { action: 'revoke' },
        auth: 'none',
        rateLimit: 'auth',
        body: tokenInBody,
        summary: 'Revoke the presented token',
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
        handle: async (ctx) => {
          await auth.resetPassword(ctx.body);
          return { message: 'Password changed; sign in with the new password.' };
        },
      }),
    ],
  };
}
