import { type Actor, Conflict, Forbidden, Invalid, Unauthenticated } from '@plaza/domain';
import type { Awaiting, AuthService, RegistrationService } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type OperationContext, type Refusal, refuse, type Script } from '../http/operation.js';
import { IssuedTokenPayload, presentIssuedToken, presentUserSummary, UserSummary } from '../presenters/user.js';
import type { PresenterContext } from '../presenters/context.js';
import { zWireId } from '../presenters/wire.js';

/** Also the library's check of `auth.login` and `auth.register` (docs/decisions/0113). */
export const credentials = z.object({
  username: z.string().min(1, 'is required').max(191),
  password: z.string().min(1, 'is required').max(200),
  totp: z.union([z.string().max(16), z.number().int().transform(String)]).nullish(),
});

export const registration = z.object({
  username: z.string().max(64),
  email: z.string().max(191),
  password: z.string().max(200),
  cause: z.string().max(255).nullish(),
  /** Required when API_REGISTRATION=invite; ignored otherwise. */
  invite_code: z.string().max(64).nullish(),
});

export const tokenInBody = z.object({ token: z.string().max(512).optional() });

/** The answer of the calls whose only payload is a human confirmation. */
const MessageOnly = z.object({ message: z.string() });

/**
 * A login the server refuses with a 200 and `success: false` (docs/decisions/0002), in the error body's
 * shape: wrong credentials, or the two-factor challenge the client recognises by `two_factor_required`.
 */
const LoginRefusal = z.discriminatedUnion('code', [
  z.object({ code: z.literal('invalid_credentials'), error: z.string(), message: z.string() }),
  z.object({ code: z.literal('two_factor_required'), two_factor_required: z.literal(true), error: z.string(), message: z.string() }),
  // The account waits for its e-mail confirmation or an administrator's approval (docs/decisions/0104).
  z.object({ code: z.literal('email_unconfirmed'), error: z.string(), message: z.string() }),
  z.object({ code: z.literal('approval_pending'), error: z.string(), message: z.string() }),
]);

/** Login refusals answered 200 (the credentials were right for the last two: the account waits). */
const LOGIN_REFUSALS = new Set(['invalid_credentials', 'email_unconfirmed', 'approval_pending']);

type LoginOutcome = z.input<typeof IssuedTokenPayload> | Refusal<z.input<typeof LoginRefusal>>;

/**
 * A registration the server refuses with a 200 and `success: false` (docs/decisions/0010): the mobile
 * client shows `message` only on a 200 or 201. `code` says which rule: `invalid_username`,
 * `invalid_email`, `password_too_short`, `password_too_long`, `username_taken`, `email_taken`, and
 * the operator's (docs/decisions/0104): `registration_closed`, `invite_required`,
 * `invalid_invite_code`, `invite_expired`, `invite_used_up`.
 */
const RegisterRefusal = z.object({
  code: z.string(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ field: z.string(), problem: z.string() })).optional(),
});
/** `awaiting`: what the account waits for before it may sign in (empty: it may now). */
const Registered = z.object({
  message: z.string(),
  user_id: zWireId,
  user: UserSummary,
  awaiting: z.array(z.enum(['email_confirmation', 'approval'])),
});

function registeredMessage(awaiting: Awaiting[]): string {
  if (awaiting.length === 0) return 'Account created';
  const steps = awaiting.map((a) =>
    a === 'email_confirmation'
      ? 'confirm your e-mail address with the link we sent you'
      : 'wait for an administrator to approve your registration (you will get an e-mail)',
  );
  return `Account created: before you can sign in, ${steps.join(', then ')}.`;
}

/** The token to refresh or revoke: the bearer header, else a `token` field of the body. */
function presentedToken(ctx: OperationContext<unknown, { token?: string }, Actor | null>): string {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.request.headers.authorization ?? ''));
  const token = m?.[1] ?? ctx.body.token;
  if (!token) throw new Unauthenticated('Send the token as Authorization: Bearer <token>', 'missing_token');
  return token;
}

/** Also the library's check (docs/decisions/0113). */
export const resetBody = z.object({ token: z.string().min(1, 'is required').max(512), password: z.string().max(200) });

/** Also the library's check (docs/decisions/0113). */
export const emailBody = z.object({ email: z.string().min(1, 'is required').max(191) });

export function authScript(auth: AuthService, registrar: RegistrationService, p: PresenterContext): Script {
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
      if (error instanceof Unauthenticated && LOGIN_REFUSALS.has(error.code)) {
        return refuse({ code: error.code as 'invalid_credentials', error: error.message, message: error.message });
      }
      throw error;
    }
  };
  return {
    name: 'auth',
    operations: [
      op({
        method: 'POST',
        auth: 'none',
        rateLimit: 'auth',
        limitPerAccount: 'username',
        body: credentials,
        summary: 'Log in with username or e-mail, password and optional TOTP code',
        response: IssuedTokenPayload,
        refusal: LoginRefusal,
        handle: login,
      }),
      op({
        method: 'POST',
        select: { action: 'login' },
        auth: 'none',
        rateLimit: 'auth',
        limitPerAccount: 'username',
        body: credentials,
        summary: 'Log in (explicit action form)',
        response: IssuedTokenPayload,
        refusal: LoginRefusal,
        handle: login,
      }),
      op({
        method: 'POST',
        select: { action: 'register' },
        auth: 'none',
        rateLimit: 'auth',
        body: registration,
        summary:
          'Create an account as API_REGISTRATION allows (invite_code in invite mode); a refused one (invalid or taken name, e-mail or password, closed, bad invitation) answers 200 with success false',
        response: Registered,
        refusal: RegisterRefusal,
        handle: async (ctx): Promise<z.input<typeof Registered> | Refusal<z.input<typeof RegisterRefusal>>> => {
          try {
            const { user, awaiting } = await registrar.register(ctx.body);
            return { message: registeredMessage(awaiting), user_id: user.id, user: presentUserSummary(user), awaiting };
          } catch (error) {
            // The rules of the domain, a name or address taken meanwhile by a concurrent registration,
            // and the operator's (closed, invitations).
            if (error instanceof Invalid || error instanceof Conflict || error instanceof Forbidden) {
              return refuse({
                code: error.code,
                error: error.message,
                message: error.message,
                ...(error.details.length ? { details: error.details } : {}),
              });
            }
            throw error;
          }
        },
      }),
      op({
        method: 'GET',
        select: { action: 'confirm_email' },
        auth: 'none',
        // A GET counts as a read (docs/decisions/0005), like delete_account.php's link: its secret cannot be guessed.
        query: z.object({ token: z.string().min(1, 'is required').max(512) }),
        summary: 'The e-mailed confirmation link of a new account (API_REGISTRATION_EMAIL_CONFIRM): works once, within 24 hours',
        response: z.object({ message: z.string(), user_id: zWireId, awaiting: z.array(z.enum(['approval'])) }),
        handle: async (ctx) => {
          const { user_id, awaiting_approval } = await registrar.confirmEmail(ctx.query.token);
          const message = awaiting_approval
            ? 'Your e-mail address is confirmed. An administrator still has to approve your registration: you will get an e-mail.'
            : 'Your e-mail address is confirmed: you can sign in now.';
          return { message, user_id, awaiting: awaiting_approval ? ['approval' as const] : [] };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'resend_confirmation' },
        auth: 'none',
        rateLimit: 'auth',
        body: emailBody,
        summary: 'Mail a new confirmation link to an account waiting for it (same answer whether or not the account exists)',
        response: MessageOnly,
        handle: async (ctx) => {
          await registrar.resendConfirmation(ctx.body.email);
          return { message: 'If an account with this address is waiting for its confirmation, a new link has been sent to it.' };
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
        body: emailBody,
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
        body: resetBody,
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
