import type { Examples } from '../operation-fixtures.js';

/** The moderation context's examples (reports.php, moderators.php and feature_suggestions.php). */
export const EXAMPLES: Examples = {
  // A moderator's warning stores its `reason`; each request decides another pending report.
  'POST reports.php': (f) => ({
    as: 'moderator',
    body: { moderator_action: 'warn_user', report_id: f.reportsToJudge.pop() ?? 0, reason: 'Mind your words', description: 'x' },
  }),
  'DELETE reports.php': (f) => ({ body: { report_id: f.report } }),
  'POST moderators.php action=apply': () => ({ body: { motivation: 'I read every report' } }),
  'POST moderators.php action=vote_moderator': (f) => ({ body: { candidate_id: f.moderator.id, vote: 'for' } }),
  // The spec's form without action: a candidacy by `other`, or with candidate_id (the sweeps' unknown one) a vote.
  'POST moderators.php': () => ({ as: 'other', body: { motivation: 'I read every report', vote: 'for' } }),
  'GET feature_suggestions.php has=id': (f) => ({ query: { id: f.suggestion } }),
  'POST feature_suggestions.php': () => ({ body: { title: 'Dark mode', description: 'A dark theme for reading at night' } }),
  'POST feature_suggestions.php action=vote': (f) => ({ body: { suggestion_id: f.suggestion, vote: 1 } }),
  'POST feature_suggestions.php action=comment': (f) => ({ body: { suggestion_id: f.suggestion, content: 'Yes please' } }),
  'POST feature_suggestions.php action=update_status': (f) => ({
    as: 'moderator',
    body: { suggestion_id: f.suggestion, status: 'planned', admin_response: 'Next release' },
  }),
  'DELETE feature_suggestions.php has=id': (f) => ({ query: { id: f.suggestion } }),
};
