import type { SuggestionCommentView, SuggestionView } from '@plaza/domain/moderation';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, nameOf, zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** feature_suggestions.php suggestion (contract §35.4). */
export const SuggestionItem = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  title: z.string(),
  description: z.string(),
  status: z.enum(['pending', 'planned', 'in_progress', 'done', 'rejected']),
  admin_response: z.string().nullable(),
  votes_up: zCount,
  votes_down: zCount,
  score: z.number().int(),
  comment_count: zCount,
  my_vote: z.union([z.literal(1), z.literal(-1)]).nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp,
});

export function presentSuggestion(v: SuggestionView, p: PresenterContext): z.input<typeof SuggestionItem> {
  const s = v.suggestion;
  return {
    id: s.id,
    user_id: s.user_id,
    username: nameOf(v.author),
    avatar: avatarOf(v.author),
    title: s.title,
    description: s.description,
    status: s.status,
    admin_response: s.admin_response,
    votes_up: s.votes_up,
    votes_down: s.votes_down,
    score: s.score,
    comment_count: s.comment_count,
    my_vote: v.my_vote,
    created_at: wireTime(p, s.created_at),
    updated_at: wireTime(p, s.updated_at),
  };
}

/** A comment on a suggestion (contract §35.4). */
export const SuggestionCommentItem = z.object({
  id: zWireId,
  suggestion_id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  content: z.string(),
  created_at: zTimestamp,
});

export function presentSuggestionComment(v: SuggestionCommentView, p: PresenterContext): z.input<typeof SuggestionCommentItem> {
  const c = v.comment;
  return {
    id: c.id,
    suggestion_id: c.suggestion_id,
    user_id: c.user_id,
    username: nameOf(v.author),
    avatar: avatarOf(v.author),
    content: c.content,
    created_at: wireTime(p, c.created_at),
  };
}
