import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { RemoteFollowRequestRepository } from '../follow-approval.js';

export interface FollowRequestPorts {
  users: UserRepository;
  requests: RemoteFollowRequestRepository;
}

const page = (p = 1, perPage = 20) => ({ page: p, perPage });
const at = '2026-01-01 00:00:00';

/** Pending remote Follows (docs/decisions/0210), held to the same behaviour in memory and on SQL. */
export function followRequestsContract(name: string, make: () => Promise<FollowRequestPorts>) {
  describe(`${name}: remote follow requests`, () => {
    it('keeps one request per user and actor, the latest Follow id, newest first', async () => {
      const { users, requests } = await make();
      const alice = await users.create(aNewUser({ username: 'fr_alice' }));
      const bob = await users.create(aNewUser({ username: 'fr_bob' }));
      const added = [
        await requests.add({ user_id: alice.id, actor_url: 'https://a.example/u/1', follow_id: 'https://a.example/f/1', requested_at: at }),
        await requests.add({ user_id: alice.id, actor_url: 'https://b.example/u/2', follow_id: 'https://b.example/f/2', requested_at: at }),
        await requests.add({ user_id: alice.id, actor_url: 'https://a.example/u/1', follow_id: 'https://a.example/f/3', requested_at: at }),
        await requests.add({ user_id: bob.id, actor_url: 'https://a.example/u/1', follow_id: 'https://a.example/f/4', requested_at: at }),
      ];
      expect(added, 'only a new request is reported new (it alone is notified)').toEqual([true, true, false, true]);
      const list = await requests.pending(alice.id, page());
      expect(list.total).toBe(2);
      expect(list.items.map((r) => [r.actor_url, r.follow_id])).toEqual([
        ['https://b.example/u/2', 'https://b.example/f/2'],
        ['https://a.example/u/1', 'https://a.example/f/3'],
      ]);
      expect((await requests.pending(alice.id, page(2, 1))).items.map((r) => r.actor_url)).toEqual(['https://a.example/u/1']);
      expect((await requests.find(list.items[0].id))?.user_id).toBe(alice.id);
    });

    it('removes a request once: by id, by actor, or by Follow id', async () => {
      const { users, requests } = await make();
      const alice = await users.create(aNewUser({ username: 'fr_carol' }));
      await requests.add({ user_id: alice.id, actor_url: 'https://a.example/u/1', follow_id: 'https://a.example/f/1', requested_at: at });
      await requests.add({ user_id: alice.id, actor_url: 'https://a.example/u/2', follow_id: 'https://a.example/f/2', requested_at: at });
      await requests.add({ user_id: alice.id, actor_url: 'https://a.example/u/3', follow_id: 'https://a.example/f/3', requested_at: at });
      const [third] = (await requests.pending(alice.id, page())).items;
      expect(await requests.remove(third.id)).toBe(true);
      expect(await requests.remove(third.id)).toBe(false);
      expect(await requests.find(third.id)).toBeNull();
      expect(await requests.removeByActor(alice.id, 'https://a.example/u/9')).toBe(false);
      expect(await requests.removeByActor(alice.id, 'https://a.example/u/2')).toBe(true);
      // The Follow id must be the actor's own.
      expect(await requests.removeByFollowId('https://a.example/u/2', 'https://a.example/f/1')).toBe(false);
      expect(await requests.removeByFollowId('https://a.example/u/1', 'https://a.example/f/1')).toBe(true);
      expect((await requests.pending(alice.id, page())).total).toBe(0);
    });
  });
}
