import { Forbidden, Invalid, ManualClock } from '@plaza/domain';
import { actorOf } from '@plaza/domain/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../../test/support/database.js';
import { closeLibraryPlaza, openLibraryPlaza } from '../../../test/support/library-plaza.js';
import { LIBRARY_INPUT_RULES, type Plaza } from './library.js';

/** The operators' use cases of createPlaza (docs/decisions/0130): admin roles, domain blocks, the fediverse identity. */
let database: TestDatabase;
let plaza: Plaza;
const clock = new ManualClock('2026-06-01T09:00:00Z');
beforeAll(async () => {
  ({ plaza, database } = await openLibraryPlaza('operators', clock));
});
afterAll(() => closeLibraryPlaza({ plaza, database }));

async function account(username: string) {
  return plaza.accounts.auth.register({ username, email: `${username}@example.test`, password: 'a long password' });
}

describe('the operators’ library use cases', () => {
  it('offers admin roles, domain blocks and fediverse.php, and nothing that trusts its caller', () => {
    expect(Object.keys(LIBRARY_INPUT_RULES.admin ?? {})).toEqual(['roles']);
    expect(Object.keys(LIBRARY_INPUT_RULES.federation ?? {}).sort()).toEqual(['domains', 'fediverse']);
    expect(LIBRARY_INPUT_RULES.media).toBeUndefined();
    // The inbox's handlers of verified activities are not reachable through the library.
    expect((plaza.federation.fediverse as unknown as Record<string, unknown>).remoteFollowed).toBeUndefined();
    expect((plaza.federation.fediverse as unknown as Record<string, unknown>).noteReceived).toBeUndefined();
  });

  it('lets an administrator promote a user and refuses a non-administrator, inside the service', async () => {
    const root = await account('root_ops');
    const carol = await account('carol_ops');
    const dave = await account('dave_ops');
    const admin = actorOf({ ...root, is_admin: true });

    await expect(plaza.admin.roles.promote(actorOf(dave), carol.id)).rejects.toBeInstanceOf(Forbidden);
    await expect(plaza.admin.roles.list(actorOf(dave), null, { page: 1, perPage: 20 })).rejects.toBeInstanceOf(Forbidden);

    await plaza.admin.roles.promote(admin, carol.id);
    const found = await plaza.admin.roles.list(admin, 'carol_ops', { page: 1, perPage: 20 });
    expect(found.items.map((u) => [u.username, u.is_admin])).toEqual([['carol_ops', true]]);
  });

  it('adds a domain block as an administrator and lists it; a non-administrator is refused', async () => {
    const root = await account('root_blocks');
    const erin = await account('erin_blocks');
    const admin = actorOf({ ...root, is_admin: true });

    await expect(
      plaza.federation.domains.block(actorOf(erin), { domain: 'spam.example', severity: 'suspend', reason: 'spam' }),
    ).rejects.toBeInstanceOf(Forbidden);
    const { block } = await plaza.federation.domains.block(admin, { domain: 'Spam.Example', severity: 'suspend', reason: 'spam' });
    expect(block).toMatchObject({ domain: 'spam.example', severity: 'suspend' });
    expect((await plaza.federation.domains.blocked(admin)).map((b) => b.domain)).toEqual(['spam.example']);
  });

  it('answers a user’s federation identity', async () => {
    const frank = await account('frank_fed');
    const profile = await plaza.federation.fediverse.profile(actorOf(frank), frank.id);
    expect(profile).toMatchObject({ user: { id: frank.id, username: 'frank_fed' }, followers_count: 0, following_count: 0 });
    expect(profile.user).not.toHaveProperty('password_hash');
    const followers = await plaza.federation.fediverse.followers(actorOf(frank), frank.id, { page: 1, perPage: 20 });
    expect(followers.total).toBe(0);
  });

  it('refuses bad input with Invalid before the service runs', async () => {
    const grace = await account('grace_bad');
    const actor = actorOf(grace);
    const admin = actorOf({ ...grace, is_admin: true });
    // Neither handle nor actor_url: refused without any outbound request.
    const noTarget = plaza.federation.fediverse.followRemote(actor, {});
    await expect(noTarget).rejects.toBeInstanceOf(Invalid);
    await expect(noTarget).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(plaza.federation.fediverse.lookup(actor, '')).rejects.toBeInstanceOf(Invalid);
    await expect(plaza.admin.roles.promote(admin, -1)).rejects.toBeInstanceOf(Invalid);
    await expect(
      plaza.federation.domains.block(admin, { domain: 'x.example', severity: 'nuke', reason: 'r' } as never),
    ).rejects.toBeInstanceOf(Invalid);
    expect(await plaza.federation.domains.blocked(admin)).not.toContainEqual(expect.objectContaining({ domain: 'x.example' }));
  });
});
