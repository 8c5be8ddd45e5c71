import { sql, type RawBuilder } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The full-text differences between the dialects, for search (docs/decisions/0042). `words` are runs
 * of letters and digits (the domain's `searchWords`), so they carry no operator of either syntax.
 *
 * - MySQL/MariaDB: `MATCH(content) AGAINST('+w1* +w2*' IN BOOLEAN MODE)` on the FULLTEXT index; its
 *   value is the relevance (TF-IDF), higher is better.
 * - SQLite: `posts_fts MATCH '"w1"* AND "w2"*'` on the FTS5 table; `bm25()` ranks, lower is better.
 */
export function postTextQuery(dialect: SqlDialect, words: string[]): string {
  return dialect === 'mysql' ? words.map((w) => `+${w}*`).join(' ') : words.map((w) => `"${w}"*`).join(' AND ');
}

/** A LIKE pattern matching values that start with `prefix` literally, with `!` as the escape character. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Length in characters (MySQL's `length` counts bytes). */
export function charLength(dialect: SqlDialect, column: RawBuilder<unknown>): RawBuilder<number> {
  return dialect === 'mysql' ? sql<number>`char_length(${column})` : sql<number>`length(${column})`;
}
