import type { AuthChangePublisher } from '@plaza/domain/accounts';
import type { Timestamp } from '@plaza/domain';
import {
  emailTaken,
  type NewUser,
  type ProfilePatch,
  type UserRecord,
  type UserRepository,
  usernameTaken,
  type UserWithSecrets,
  withoutSecrets,
} from '@plaza/domain/accounts';
import type { Kysely, Selectable } from 'kysely';
import { DuplicateKey, insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import type { UsersTable } from './schema.js';
import { prepared } from '../prepared.js';

/** The account as use cases hand it out: its secrets are left here (docs/decisions/0113). */
export function toUserRecord(row: Selectable<UsersTable>): UserRecord {
  const { password_hash: _hash, totp_secret: _secret, ...rest } = toUserWithSecrets(row);
  return rest;
}

export function toUserWithSecrets(row: Selectable<UsersTable>): UserWithSecrets {
  const { updated_at: _updated, totp_last_step: _step, ...rest } = row;
  return {
    ...rest,
    is_admin: Boolean(row.is_admin),
    is_technician: Boolean(row.is_technician),
    is_moderator: Boolean(row.is_moderator),
    is_private: Boolean(row.is_private),
    totp_enabled: Boolean(row.totp_enabled),
    show_online_status: Boolean(row.show_online_status),
    read_receipts: Boolean(row.read_receipts),
    allow_messages: Boolean(row.allow_messages),
  };
}

/** Users on MySQL or SQLite; username and e-mail columns carry a case-insensitive collation. */
export class SqlUserRepository implements UserRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async create(user: NewUser): Promise<UserRecord> {
    let result;
    try {
      result = await this.db
        .insertInto('users')
        .values({ ...user, is_admin: user.is_admin ? 1 : 0 })
        .executeTakeFirstOrThrow();
    } catch (error) {
      // A concurrent registration took the name or the address between the service's check and here.
      if (error instanceof DuplicateKey) throw error.key.includes('email') ? emailTaken() : usernameTaken();
      throw error;
    }
    return (await this.findById(insertedId(result)))!;
  }

  // Read on most requests that show an account (users.php, profiles): built once (prepared.ts).
  private readonly findByIdQuery = prepared((id: number) => this.db.selectFrom('users').selectAll().where('id', '=', id));

  async findById(id: number) {
    const [row] = await this.findByIdQuery(this.db, id);
    return row ? toUserRecord(row) : null;
  }

  async findWithSecrets(id: number) {
    const [row] = await this.findByIdQuery(this.db, id);
    return row ? toUserWithSecrets(row) : null;
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
    return rows.map(toUserRecord);
  }

  async findByLogin(login: string) {
    const user = await this.findByLoginWithSecrets(login);
    return user && withoutSecrets(user);
  }

  async findByLoginWithSecrets(login: string) {
    const column = login.includes('@') ? 'email' : 'username';
    const row = await this.db.selectFrom('users').selectAll().where(column, '=', login).executeTakeFirst();
    return row ? toUserWithSecrets(row) : null;
  }

  async findByEmail(email: string) {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUserRecord(row) : null;
  }

  async taken(username: string, email: string) {
    const rows = await this.db
      .selectFrom('users')
      .select(['username', 'email'])
      .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', email)]))
      .execute();
    return {
      username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
      email: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
    };
  }

  async updateProfile(id: number, patch: ProfilePatch) {
    if (Object.keys(patch).length === 0) return;
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
    await this.sessions?.publish(id);
  }

  async updatePasswordHash(id: number, hash: string) {
    await this.db.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
    await this.sessions?.publish(id);
  }

  async updateEmail(id: number, email: string) {
    try {
      await this.db.updateTable('users').set({ email }).where('id', '=', id).execute();
    } catch (error) {
      // Another account took the address between the service's check and here.
      if (error instanceof DuplicateKey) throw emailTaken();
      throw error;
    }
  }

  async setTwoFactor(id: number, secret: string | null, enabled: boolean) {
    await this.db
      .updateTable('users')
      .set({ totp_secret: secret, totp_enabled: enabled ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    await this.sessions?.publish(id);
  }

  async setPendingTotpSecret(id: number, secret: string) {
    const result = await this.db
      .updateTable('users')
      .set({ totp_secret: secret })
      .where('id', '=', id)
      .where('totp_secret', 'is', null)
      .where('totp_enabled', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async enableTotp(id: number, secret: string) {
    const result = await this.db
      .updateTable('users')
      .set({ totp_enabled: 1 })
      .where('id', '=', id)
      .where('totp_enabled', '=', 0)
      .where('totp_secret', '=', secret)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async disableTotp(id: number) {
    const result = await this.db
      .updateTable('users')
      .set({ totp_enabled: 0, totp_secret: null })
      .where('id', '=', id)
      .where('totp_enabled', '=', 1)
      .executeTakeFirst();
    const done = Number(result.numUpdatedRows) === 1;
    if (done) await this.sessions?.publish(id);
    return done;
  }

  async advanceTotpStep(id: number, step: number) {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async replacePasswordHash(id: number, expected: string, hash: string) {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: hash })
      .where('id', '=', id)
      .where('password_hash', '=', expected)
      .executeTakeFirst();
    const done = Number(result.numUpdatedRows) === 1;
    if (done) await this.sessions?.publish(id);
    return done;
  }

  async setPrivacy(id: number, flags: Partial<Pick<UserRecord, 'is_private' | 'show_online_status' | 'read_receipts' | 'allow_messages'>>) {
    const values = Object.fromEntries(Object.entries(flags).map(([k, v]) => [k, v ? 1 : 0]));
    if (Object.keys(values).length === 0) return;
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
    await this.sessions?.publish(id);
  }

  async setAdmin(id: number, isAdmin: boolean) {
    await this.db
      .updateTable('users')
      .set({ is_admin: isAdmin ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    await this.sessions?.publish(id);
  }

  async touchLastActive(id: number, at: Timestamp) {
    await this.db.updateTable('users').set({ last_active_at: at }).where('id', '=', id).execute();
  }
}
