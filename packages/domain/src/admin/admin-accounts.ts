import { actorOf, type AuthService, type IssuedToken } from '../accounts/auth-service.js';
import type { AccessTokenRepository, ListedToken, SecretTokens, UserRepository } from '../accounts/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound, Unauthenticated } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';

export type AdminSignIn = { kind: 'signed_in'; tokenHash: string; actor: Actor } | { kind: 'two_factor_required' };

/** A browser session of the admin panel resumed: who, and which access token it rides on. */
export interface AdminSessionActor {
  actor: Actor;
  tokenId: number;
}

/**
 * Sign-in and the tokens page of the admin panel. A browser session rides on an ordinary access token
 * issued by the same login as auth.php (password, then TOTP or a recovery code when two-factor is on):
 * the session keeps only the token's hash, so signing out, revoking the token, a password change or a
 * reset end it like any other session of the account.
 */
export class AdminAccountService {
  constructor(
    private readonly auth: AuthService,
    private readonly tokens: AccessTokenRepository,
    private readonly users: UserRepository,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly technicianUserIds: readonly number[],
  ) {}

  /** Fails with Unauthenticated `invalid_credentials` like auth.php's login. */
  async signIn(input: { login: string; password: string; totp: string | null }): Promise<AdminSignIn> {
    const result = await this.auth.login(input);
    if (result.kind === 'two_factor_required') return result;
    const { token, user } = result.issued;
    return { kind: 'signed_in', tokenHash: this.secrets.hash(token), actor: actorOf(user, this.technicianUserIds) };
  }

  /** The session's user while its token is live, else null. */
  async resume(tokenHash: string): Promise<AdminSessionActor | null> {
    const now = this.clock.now();
    const stored = await this.tokens.findActive(tokenHash, toTimestamp(now));
    if (!stored || stored.user.deleted_at !== null) return null;
    // "Last used" on the tokens page, written at most once a minute like the API's authentication.
    const lastUsed = stored.last_used_at ? Date.parse(`${stored.last_used_at.replace(' ', 'T')}Z`) : 0;
    if (now.getTime() - lastUsed >= 60_000) await this.tokens.touch(stored.id, toTimestamp(now));
    return { actor: actorOf(stored.user, this.technicianUserIds), tokenId: stored.id };
  }

  async signOut(tokenHash: string): Promise<void> {
    const now = toTimestamp(this.clock.now());
    const stored = await this.tokens.findActive(tokenHash, now);
    if (stored) await this.tokens.revoke(stored.id, now);
  }

  listTokens(actor: Actor): Promise<ListedToken[]> {
    return this.tokens.listActiveOfUser(actor.userId, toTimestamp(this.clock.now()));
  }

  /** A new API token, returned once: only its hash is kept. */
  async createToken(actor: Actor): Promise<IssuedToken> {
    const user = await this.users.findById(actor.userId);
    if (!user || user.deleted_at !== null) throw new Unauthenticated('This account no longer exists', 'invalid_token');
    return this.auth.issue(user);
  }

  /** Revokes one of the user's own live tokens; someone else's or an unknown one is a 404. */
  async revokeToken(actor: Actor, tokenId: number): Promise<void> {
    const now = toTimestamp(this.clock.now());
    const own = await this.tokens.listActiveOfUser(actor.userId, now);
    if (!own.some((t) => t.id === tokenId) || !(await this.tokens.revoke(tokenId, now))) {
      throw new NotFound('No such token among yours', 'token_not_found');
    }
  }
}
