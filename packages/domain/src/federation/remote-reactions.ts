import type { ReactionType } from '../content/model.js';

/**
 * Misskey's and Pleroma's emoji reactions (`EmojiReact`, a `Like` with `_misskey_reaction` or
 * `content`) as one of Plaza's six reaction types (docs/decisions/0206): the emoji that mean one of
 * them map to it; any other emoji, custom ones (`:blobcat:`) included, counts as a like, as Mastodon
 * counts a Misskey reaction as a favourite.
 */
const EMOJI: Record<Exclude<ReactionType, 'like'>, string[]> = {
  love: ['❤', '♥', '😍', '🥰', '😘', '💕', '💖', '💗', '💓', '💞', '💘', '🧡', '💛', '💚', '💙', '💜', '🖤', '🤍', '🤎'],
  haha: ['😆', '😂', '🤣', '😄', '😁', '😹', '😅'],
  wow: ['😮', '😲', '😯', '🤯', '😱', '😳', '🙀'],
  sad: ['😢', '😭', '😿', '☹', '🙁', '😞', '😔', '🥺', '😥'],
  angry: ['😠', '😡', '🤬', '💢', '👿', '😤'],
};

const BY_EMOJI = new Map<string, ReactionType>(
  Object.entries(EMOJI).flatMap(([type, list]) => list.map((e) => [e, type as ReactionType] as const)),
);

/** The reaction type an emoji stands for; `like` for 👍 and every emoji that matches none. */
export function reactionOfEmoji(emoji: string): ReactionType {
  // Variation selectors and skin tones do not change the meaning (❤️ is ❤ + U+FE0F).
  const bare = emoji.trim().replace(/[\uFE0E\uFE0F\u{1F3FB}-\u{1F3FF}]/gu, '');
  return BY_EMOJI.get(bare) ?? 'like';
}

/** The emoji an `EmojiReact` carries for a reaction type (Pleroma's and Misskey's `content`); none for `like`, sent as a plain `Like`. */
const EMOJI_OF: Record<Exclude<ReactionType, 'like'>, string> = { love: '❤️', haha: '😂', wow: '😮', sad: '😢', angry: '😡' };

export function emojiOfReaction(type: Exclude<ReactionType, 'like'>): string {
  return EMOJI_OF[type];
}
