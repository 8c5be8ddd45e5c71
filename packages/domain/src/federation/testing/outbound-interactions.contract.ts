import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { OutboundInteractionRepository, OutboundReaction } from '../remote-engagement.js';

export interface OutboundInteractionPorts {
  users: UserRepository;
  outbound: OutboundInteractionRepository;
}

const at = '2026-01-01 00:00:00';
const note = 'https://remote.example/notes/1';
const author = 'https://remote.example/users/ann';

/** Reactions and replies of local users to remote Notes (docs/decisions/0245), the same in memory and on SQL. */
export function outboundInteractionsContract(name: string, make: () => Promise<OutboundInteractionPorts>) {
  describe(`${name}: reactions and replies to remote Notes`, () => {
    it('keeps one reaction per user and Note; a replacement or removal names the activity it undoes', async () => {
      const { users, outbound } = await make();
      const alice = await users.create(aNewUser({ username: 'or_alice' }));
      const bob = await users.create(aNewUser({ username: 'or_bob' }));
      const first: OutboundReaction = {
        user_id: alice.id,
        object_id: note,
        actor_url: author,
        reaction_type: 'like',
        activity_id: 'https://here.example/a/1',
        reacted_at: at,
      };
      expect(await outbound.addReaction(first)).toBe(true);
      expect(await outbound.addReaction({ ...first, reaction_type: 'love', activity_id: 'https://here.example/a/2' })).toBe(false);
      expect(await outbound.addReaction({ ...first, user_id: bob.id, activity_id: 'https://here.example/a/3' })).toBe(true);
      expect(await outbound.findReaction(alice.id, note)).toEqual(first);

      const next = { reaction_type: 'haha' as const, activity_id: 'https://here.example/a/4', reacted_at: at };
      expect(await outbound.replaceReaction(first, next)).toBe(true);
      expect(await outbound.replaceReaction(first, { ...next, activity_id: 'https://here.example/a/5' }), 'the old activity is gone').toBe(
        false,
      );
      const replaced = { ...first, ...next };
      expect(await outbound.findReaction(alice.id, note)).toEqual(replaced);
      expect(await outbound.removeReaction(first), 'a removal naming a replaced activity removes nothing').toBe(false);
      expect(await outbound.removeReaction(replaced)).toBe(true);
      expect(await outbound.removeReaction(replaced)).toBe(false);
      expect(await outbound.findReaction(alice.id, note)).toBeNull();
      expect((await outbound.findReaction(bob.id, note))?.activity_id).toBe('https://here.example/a/3');
    });

    it('stores replies with their own ids', async () => {
      const { users, outbound } = await make();
      const carl = await users.create(aNewUser({ username: 'or_carl' }));
      const reply = { user_id: carl.id, object_id: note, actor_url: author, content: 'Hi', audience: 'public' as const, created_at: at };
      const a = await outbound.addReply(reply);
      const b = await outbound.addReply({ ...reply, audience: 'direct' });
      expect(a).toEqual({ ...reply, id: a.id, updated_at: null });
      expect(b.id).toBeGreaterThan(a.id);
      expect(await outbound.findReply(a.id)).toEqual(a);
    });

    it("edits and removes a reply only as its author's, each once for a removal", async () => {
      const { users, outbound } = await make();
      const dora = await users.create(aNewUser({ username: 'or_dora' }));
      const eli = await users.create(aNewUser({ username: 'or_eli' }));
      const reply = await outbound.addReply({
        user_id: dora.id,
        object_id: note,
        actor_url: author,
        content: 'First',
        audience: 'public',
        created_at: at,
      });
      const edit = { content: 'Second', updated_at: '2026-01-02 00:00:00' };
      expect(await outbound.editReply({ id: reply.id, user_id: eli.id }, edit), "another user's").toBe(false);
      expect(await outbound.editReply(reply, edit)).toBe(true);
      expect(await outbound.findReply(reply.id)).toEqual({ ...reply, ...edit });
      expect(await outbound.removeReply({ id: reply.id, user_id: eli.id }), "another user's").toBe(false);
      expect(await outbound.removeReply(reply)).toBe(true);
      expect(await outbound.removeReply(reply)).toBe(false);
      expect(await outbound.findReply(reply.id)).toBeNull();
      expect(await outbound.editReply(reply, edit), 'a removed one').toBe(false);
    });
  });
}
