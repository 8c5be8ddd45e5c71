import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

export type MigrationFn = (db: Kysely<any>, dialect: SqlDialect) => Promise<void>;

export interface PlazaMigration {
  up: MigrationFn;
  down?: MigrationFn;
}

/** Integer primary key that auto-increments on both dialects. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Timestamps are text `YYYY-MM-DD HH:MM:SS` in UTC; DATETIME on MySQL, plain text on SQLite. */
export const TIMESTAMP = 'datetime';

/** InnoDB with utf8mb4 on MySQL (emoji in statuses and posts); nothing to add on SQLite. */
export function tableOptions<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
  dialect: SqlDialect,
): CreateTableBuilder<T, C> {
  return dialect === 'mysql' ? table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_unicode_ci`) : table;
}

export function caseInsensitive(dialect: SqlDialect) {
  return (c: ColumnDefinitionBuilder) => (dialect === 'sqlite' ? c.modifyEnd(sql`collate nocase`) : c);
}

/** Boolean flag stored as 0/1 on both dialects. */
export function flag(c: ColumnDefinitionBuilder) {
  return c.notNull().defaultTo(0);
}
