import { listPage, offsetOf, type PageRequest, type Timestamp } from '@plaza/domain';
import type {
  AccountDataPart,
  AccountHold,
  AccountHoldRepository,
  EmailConfirmationRepository,
  Invitation,
  InvitationRepository,
  StoredMedia,
} from '@plaza/domain/accounts';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId } from '../dialect.js';
import type { RegistrationInvitationsTable } from './registration-schema.js';
import { SqlSingleUseTokenRepository } from './sql-single-use-token-repository.js';

/** The holds of new accounts (docs/decisions/0104): one row per account while it waits for something. */
export class SqlAccountHoldRepository implements AccountHoldRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(hold: AccountHold) {
    await this.db
      .insertInto('account_holds')
      .values({ ...hold, awaiting_approval: hold.awaiting_approval ? 1 : 0, awaiting_email: hold.awaiting_email ? 1 : 0 })
      .execute();
  }

  async find(userId: number): Promise<AccountHold | null> {
    const row = await this.db.selectFrom('account_holds').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row ? { ...row, awaiting_approval: row.awaiting_approval === 1, awaiting_email: row.awaiting_email === 1 } : null;
  }

  clearApproval(userId: number) {
    return this.clear(userId, 'awaiting_approval');
  }

  clearEmail(userId: number) {
    return this.clear(userId, 'awaiting_email');
  }

  async awaitingApproval(page: PageRequest) {
    const rows = await this.db
      .selectFrom('account_holds as h')
      .innerJoin('users as u', 'u.id', 'h.user_id')
      .select(['h.user_id', 'u.username', 'u.email', 'u.cause', 'h.awaiting_email', 'h.created_at'])
      .where('h.awaiting_approval', '=', 1)
      .where('u.deleted_at', 'is', null)
      .orderBy('h.created_at')
      .orderBy('h.user_id')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return listPage(
      rows.map(({ awaiting_email, ...r }) => ({ ...r, email_confirmed: awaiting_email === 0 })),
      page,
    );
  }

  /** One conditional write ends the wait; a hold that awaits nothing more is deleted with it. */
  private async clear(userId: number, column: 'awaiting_approval' | 'awaiting_email'): Promise<boolean> {
    const result = await this.db
      .updateTable('account_holds')
      .set({ [column]: 0 })
      .where('user_id', '=', userId)
      .where(column, '=', 1)
      .executeTakeFirst();
    await this.db
      .deleteFrom('account_holds')
      .where('user_id', '=', userId)
      .where('awaiting_approval', '=', 0)
      .where('awaiting_email', '=', 0)
      .execute();
    return Number(result.numUpdatedRows) === 1;
  }
}

export class SqlInvitationRepository implements InvitationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(invitation: {
    code_hash: string;
    code_hint: string;
    max_uses: number;
    expires_at: Timestamp | null;
    created_by: number;
    created_at: Timestamp;
  }): Promise<Invitation> {
    const id = insertedId(await this.db.insertInto('registration_invitations').values(invitation).executeTakeFirstOrThrow());
    const { code_hash: _hash, ...shown } = invitation;
    return { id, ...shown, uses: 0, revoked_at: null };
  }

  async use(codeHash: string, now: Timestamp) {
    const result = await this.db
      .updateTable('registration_invitations')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('code_hash', '=', codeHash)
      .where('revoked_at', 'is', null)
      .where((eb) => eb('uses', '<', eb.ref('max_uses')))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async findByHash(codeHash: string) {
    const row = await this.db.selectFrom('registration_invitations').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    return row ? invitationOf(row) : null;
  }

  async list(page: PageRequest) {
    const rows = await this.db
      .selectFrom('registration_invitations')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return listPage(rows.map(invitationOf), page);
  }

  async revoke(id: number, at: Timestamp) {
    const result = await this.db
      .updateTable('registration_invitations')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

function invitationOf(row: Selectable<RegistrationInvitationsTable>): Invitation {
  const { code_hash: _hash, ...rest } = row;
  return { ...rest, id: Number(rest.id), uses: Number(rest.uses), max_uses: Number(rest.max_uses), created_by: Number(rest.created_by) };
}

export class SqlEmailConfirmationRepository extends SqlSingleUseTokenRepository implements EmailConfirmationRepository {
  constructor(private readonly database: Kysely<Database>) {
    super(database, 'email_confirmations');
  }

  async lastSentAt(userId: number) {
    const row = await this.database
      .selectFrom('email_confirmations')
      .select((eb) => eb.fn.max('created_at').as('last'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (row?.last as Timestamp | null | undefined) ?? null;
  }
}

/**
 * Registration's share of an account's deletion (docs/decisions/0090, 0093): its hold and its
 * confirmation links go; nothing of it is exported. Invitations an administrator created stay: they
 * are the instance's.
 */
export class SqlRegistrationAccountData implements AccountDataPart {
  readonly sections = [] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async *rows(_userId: number, _section: string): AsyncGenerator<never> {
    return;
  }

  async *media(_userId: number): AsyncGenerator<StoredMedia> {
    return;
  }

  async erase(userId: number): Promise<void> {
    await this.db.deleteFrom('account_holds').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('email_confirmations').where('user_id', '=', userId).execute();
  }
}
