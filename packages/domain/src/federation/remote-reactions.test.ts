import { describe, expect, it } from 'vitest';
import { REACTION_TYPES } from '../content/model.js';
import { emojiOfReaction, reactionOfEmoji } from './remote-reactions.js';

describe('remote emoji reactions (docs/decisions/0206, 0245)', () => {
  it('the emoji sent for each of the five non-like reactions is read back as that reaction', () => {
    for (const type of REACTION_TYPES) {
      if (type === 'like') continue;
      expect(reactionOfEmoji(emojiOfReaction(type)), type).toBe(type);
    }
  });
});
