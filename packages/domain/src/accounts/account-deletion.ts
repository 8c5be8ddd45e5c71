import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { MailDeliveryService } from './mail-outbox.js';
import { deletionConfirmationMail } from './mail-templates.js';
import type { PasswordHasher, SecretTokens, SingleUseTokenRepository, UserRepository } from './ports.js';

export const DELETION_LINK_TTL_HOURS = 24;

/** Pending confirmations of account deletion: single-use links, stored as token hashes. */
export interface DeletionRequestRepository extends SingleUseTokenRepository {}
export const DeletionRequestRepository = token<DeletionRequestRepository>('DeletionRequestRepository');

/**
 * Removes an account's data (docs/decisions/0090): what is the user's goes (tokens, posts, stories,
 * reactions, bookmarks, shares, follows, friendships, notifications, preferences, memberships, mail),
 * what others' threads need stays attributed to an anonymous tombstone (messages sent to others,
 * group messages, comments that others answered), and the account row itself becomes that tombstone.
 * Runs inside the caller's unit of work and takes the account's row lock first.
 */
export interface AccountEraser {
  erase(userId: number, at: Timestamp): Promise<void>;
}
export const AccountEraser = token<AccountEraser>('AccountEraser');

/** delete_account.php: ask with the password, confirm with the link received by e-mail. */
export class AccountDeletionService {
  constructor(
    private readonly users: UserRepository,
    private readonly requests: DeletionRequestRepository,
    private readonly eraser: AccountEraser,
    private readonly hasher: PasswordHasher,
    private readonly secrets: SecretTokens,
    private readonly mail: MailDeliveryService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly settings: { instanceName: string; confirmUrl: (token: string) => string },
  ) {}

  /** A wrong password is a 403 and sends nothing. */
  async request(actor: Actor, password: string): Promise<{ expires_at: Timestamp }> {
    const user = await this.users.findWithSecrets(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    if (!(await this.hasher.verify(password, user.password_hash))) throw new Forbidden('The password is wrong', 'wrong_password');
    const secret = this.secrets.generate();
    const now = this.clock.now();
    const expires_at = toTimestamp(addSeconds(now, DELETION_LINK_TTL_HOURS * 3600));
    const mailId = await this.uow.run(async () => {
      await this.requests.create({ user_id: user.id, token_hash: this.secrets.hash(secret), created_at: toTimestamp(now), expires_at });
      return this.mail.queue(
        user.id,
        deletionConfirmationMail(user, this.settings.confirmUrl(secret), DELETION_LINK_TTL_HOURS, this.settings.instanceName),
      );
    });
    this.mail.sendSoon([mailId]);
    return { expires_at };
  }

  /** Uses the link and erases the account, in one transaction: a failure leaves both the link and the account. */
  async confirm(secret: string): Promise<{ user_id: number }> {
    const now = toTimestamp(this.clock.now());
    return this.uow.run(async () => {
      const userId = await this.requests.consume(this.secrets.hash(secret.trim()), now);
      if (userId === null) throw Invalid.field('token', 'unknown, expired or already used', 'invalid_deletion_token');
      await this.eraser.erase(userId, now);
      return { user_id: userId };
    });
  }
}
