import { sql, type RawBuilder } from 'kysely';

/**
 * `column LIKE %q%` with the user's `%`, `_` and `!` taken literally; the explicit ESCAPE clause
 * behaves the same on MySQL and SQLite.
 */
export function containsText(column: string, q: string): RawBuilder<boolean> {
  const pattern = `%${q.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}
