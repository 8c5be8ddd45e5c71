import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { chunks, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/**
 * The moderation context's share of a user's data (docs/decisions/0093). With the account gone:
 * - its pending reports, filed or received, are cancelled (nothing is left to judge), and its votes on
 *   pending reports and open candidacies are withdrawn, the counts following;
 * - its candidacy closes (withdrawn, or resigned for a serving moderator);
 * - its warnings, bans and suspension go; the moderation log keeps its entries, under the tombstone;
 * - its suggestion comments and votes go; its suggestions go unless others voted on or answered
 *   them, in which case they stay under the tombstone, as comments others answered do.
 */
export class SqlModerationAccountData implements AccountDataPart {
  readonly sections = [
    'reports',
    'moderator_candidacies',
    'warnings',
    'bans',
    'feature_suggestions',
    'feature_suggestion_comments',
  ] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'reports':
        return ownedRows(db, 'reports', 'reporter_id', userId, [
          'id',
          'post_id',
          'user_id',
          'reason',
          'description',
          'status',
          'resolution',
          'created_at',
          'resolved_at',
        ]);
      case 'moderator_candidacies':
        return ownedRows(db, 'moderator_candidacies', 'user_id', userId, [
          'id',
          'motivation',
          'status',
          'created_at',
          'elected_at',
          'ended_at',
        ]);
      case 'warnings':
        return ownedRows(db, 'user_warnings', 'user_id', userId, ['id', 'reason', 'created_at']);
      case 'bans':
        return ownedRows(db, 'user_bans', 'user_id', userId, ['id', 'reason', 'is_permanent', 'expires_at', 'created_at']);
      case 'feature_suggestions':
        return ownedRows(db, 'feature_suggestions', 'user_id', userId, [
          'id',
          'title',
          'description',
          'status',
          'admin_response',
          'created_at',
          'updated_at',
        ]);
      default:
        return ownedRows(db, 'feature_suggestion_comments', 'user_id', userId, ['id', 'suggestion_id', 'content', 'created_at']);
    }
  }

  async *media() {}

  async erase(userId: number, at: Timestamp): Promise<void> {
    await this.closeReports(userId);
    await this.closeCandidacy(userId, at);
    await this.db.deleteFrom('user_warnings').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('user_bans').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('user_suspensions').where('user_id', '=', userId).execute();
    await this.eraseSuggestions(userId);
  }

  private async closeReports(userId: number) {
    const db = this.db;
    await db
      .updateTable('reports')
      .set({ status: 'cancelled', open_key: null })
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('reporter_id', '=', userId), eb('target_user_id', '=', userId)]))
      .execute();
    const voted = db.selectFrom('report_votes').select('report_id').where('voter_id', '=', userId);
    const pending = (await db.selectFrom('reports').select('id').where('status', '=', 'pending').where('id', 'in', voted).execute()).map(
      (r) => r.id,
    );
    await db
      .deleteFrom('report_votes')
      .where('voter_id', '=', userId)
      .where('report_id', 'in', pending.length ? pending : [0])
      .execute();
    const count = (vote: string) => sql<number>`(select count(*) from report_votes v where v.report_id = reports.id and v.vote = ${vote})`;
    for (const ids of chunks(pending)) {
      await db
        .updateTable('reports')
        .set({ votes_remove: count('remove'), votes_warn: count('warn'), votes_keep: count('keep') })
        .where('id', 'in', ids)
        .execute();
    }
  }

  private async closeCandidacy(userId: number, at: Timestamp) {
    const db = this.db;
    for (const [from, to] of [
      ['candidate', 'withdrawn'],
      ['elected', 'resigned'],
    ] as const) {
      await db
        .updateTable('moderator_candidacies')
        .set({ status: to, ended_at: at, open_user_id: null })
        .where('user_id', '=', userId)
        .where('status', '=', from)
        .execute();
    }
    const voted = db.selectFrom('moderator_votes').select('candidacy_id').where('voter_id', '=', userId);
    const open = (
      await db.selectFrom('moderator_candidacies').select('id').where('status', '=', 'candidate').where('id', 'in', voted).execute()
    ).map((r) => r.id);
    await db
      .deleteFrom('moderator_votes')
      .where('voter_id', '=', userId)
      .where('candidacy_id', 'in', open.length ? open : [0])
      .execute();
    const count = (vote: string) =>
      sql<number>`(select count(*) from moderator_votes v where v.candidacy_id = moderator_candidacies.id and v.vote = ${vote})`;
    for (const ids of chunks(open)) {
      await db
        .updateTable('moderator_candidacies')
        .set({ votes_for: count('for'), votes_against: count('against') })
        .where('id', 'in', ids)
        .execute();
    }
  }

  private async eraseSuggestions(userId: number) {
    const db = this.db;
    const touched = new Set<number>();
    for (const q of [
      db.selectFrom('feature_suggestion_votes').select('suggestion_id').where('user_id', '=', userId),
      db.selectFrom('feature_suggestion_comments').select('suggestion_id').where('user_id', '=', userId),
    ]) {
      for (const r of await q.execute()) touched.add(r.suggestion_id);
    }
    await db.deleteFrom('feature_suggestion_votes').where('user_id', '=', userId).execute();
    await db.deleteFrom('feature_suggestion_comments').where('user_id', '=', userId).execute();
    // Own suggestions nobody else voted on or answered go; the others stay under the tombstone.
    await db
      .deleteFrom('feature_suggestions')
      .where('user_id', '=', userId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('feature_suggestion_votes as v').select('v.user_id').whereRef('v.suggestion_id', '=', 'feature_suggestions.id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('feature_suggestion_comments as c').select('c.id').whereRef('c.suggestion_id', '=', 'feature_suggestions.id')),
        ),
      )
      .execute();
    const up = sql<number>`(select count(*) from feature_suggestion_votes v where v.suggestion_id = feature_suggestions.id and v.vote = 1)`;
    const down = sql<number>`(select count(*) from feature_suggestion_votes v where v.suggestion_id = feature_suggestions.id and v.vote = -1)`;
    for (const ids of chunks([...touched])) {
      await db
        .updateTable('feature_suggestions')
        .set({
          votes_up: up,
          votes_down: down,
          score: sql<number>`${up} - ${down}`,
          comment_count: sql<number>`(select count(*) from feature_suggestion_comments c where c.suggestion_id = feature_suggestions.id)`,
        })
        .where('id', 'in', ids)
        .execute();
    }
  }
}
