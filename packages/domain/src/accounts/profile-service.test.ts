import { describe, expect, it } from 'vitest';
import { InMemoryFollowRepository } from '../social/testing/index.js';
import { InMemoryProfileStatsReader, InMemoryUserRepository, aNewUser, reauthenticationOf } from './testing/index.js';
import { actorOf } from './auth-service.js';
import { ProfileService } from './profile-service.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

function setup() {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  return {
    users,
    follows,
    profiles: new ProfileService(
      users,
      new InMemoryProfileStatsReader(users, follows),
      new InMemoryUploads().references,
      reauthenticationOf(users),
    ),
  };
}

describe('ProfileService', () => {
  it('shows counters and the relation of the viewer', async () => {
    const { users, follows, profiles } = setup();
    const a = await users.create(aNewUser());
    const b = await users.create(aNewUser());
    await follows.follow(a.id, b.id, '2026-01-01 00:00:00');
    const view = await profiles.view(actorOf(a), b.id);
    expect(view.is_self).toBe(false);
    expect(view.stats).toMatchObject({ followers_count: 1, following_count: 0, is_following: true, is_followed_by: false });
  });

  it('updates only the fields given, clears with null or empty text, trims', async () => {
    const { users, profiles } = setup();
    const a = await users.create(aNewUser());
    await profiles.update(actorOf(a), { bio: '  hi  ', website: 'https://a.test' });
    const view = await profiles.update(actorOf(a), { website: '', status_text: null });
    expect(view.user).toMatchObject({ bio: 'hi', website: null, status_text: null });
  });

  it('refuses over-long values and leaves the profile as it was', async () => {
    const { users, profiles } = setup();
    const a = await users.create(aNewUser());
    await expect(profiles.update(actorOf(a), { bio: 'x'.repeat(1001) })).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await users.findById(a.id))!.bio).toBeNull();
  });

  it('fails with not found for an unknown user', async () => {
    const { users, profiles } = setup();
    const a = await users.create(aNewUser());
    await expect(profiles.view(actorOf(a), 9999)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
