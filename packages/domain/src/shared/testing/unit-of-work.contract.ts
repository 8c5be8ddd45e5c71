import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from './mothers.js';
import type { MessageGroupRepository } from '../../messaging/ports.js';
import type { FollowRepository, FriendRequestRepository } from '../../social/ports.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** A unit of work and repositories that take part in it (on SQL: the same database). */
export interface UnitOfWorkPorts {
  uow: UnitOfWork;
  users: UserRepository;
  follows: FollowRepository;
  /** `create` stores a group and its members in a transaction of its own: it must join the unit. */
  groups: MessageGroupRepository;
  friends: FriendRequestRepository;
}

const AT = '2026-01-01 00:00:00';

class Boom extends Error {}

/** A promise and the function that settles it: to hold a unit open at a chosen point. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Lets the other units started meanwhile reach their lock (and wait there, on MySQL). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** What every unit of work guarantees, run against the in-memory one and the SQL one. */
export function unitOfWorkContract(name: string, make: () => Promise<UnitOfWorkPorts>) {
  describe(`${name}: unit of work contract`, () => {
    it('commits every write of a unit that completes, and returns its value', async () => {
      const { uow, users, follows } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      const result = await uow.run(async () => {
        await follows.follow(a.id, b.id, AT);
        await follows.follow(a.id, c.id, AT);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await follows.isFollowing(a.id, b.id)).toBe(true);
      expect(await follows.isFollowing(a.id, c.id)).toBe(true);
    });

    it('leaves no write of a unit that fails half-way, and rethrows its error unchanged', async () => {
      const { uow, users, follows } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const boom = new Boom('second step failed');
      const outcome = await uow
        .run(async () => {
          await follows.follow(a.id, b.id, AT);
          const created = await users.create(aNewUser({ username: 'written_then_undone' }));
          expect(await users.findById(created.id)).not.toBeNull();
          throw boom;
        })
        .catch((e: unknown) => e);
      expect(outcome).toBe(boom);
      expect(await follows.isFollowing(a.id, b.id)).toBe(false);
      expect(await users.findByLogin('written_then_undone')).toBeNull();
    });

    it('runs an effect after the commit of the outermost unit, never for a unit that fails, and at once outside a unit', async () => {
      const { uow, users, follows } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const seen: string[] = [];
      await uow.run(async () => {
        await uow.run(async () => {
          await follows.follow(a.id, b.id, AT);
          await uow.afterCommit(async () => {
            // The effect sees what the unit committed.
            seen.push(`after commit, following: ${await follows.isFollowing(a.id, b.id)}`);
          });
        });
        seen.push('end of the unit');
      });
      expect(seen).toEqual(['end of the unit', 'after commit, following: true']);

      await uow
        .run(async () => {
          await uow.afterCommit(async () => void seen.push('never'));
          throw new Boom('undone');
        })
        .catch(() => undefined);
      await uow.afterCommit(async () => void seen.push('outside a unit'));
      expect(seen.slice(2)).toEqual(['outside a unit']);
    });

    it('reads inside the unit see its own writes', async () => {
      const { uow, users, follows } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      await uow.run(async () => {
        await follows.follow(a.id, b.id, AT);
        expect(await follows.isFollowing(a.id, b.id)).toBe(true);
        expect((await follows.followerIds(b.id, { page: 1, perPage: 10 })).ids).toEqual([a.id]);
      });
    });

    it('a nested run joins the outer unit: an outer failure undoes the inner writes', async () => {
      const { uow, users, follows } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await expect(
        uow.run(async () => {
          await follows.follow(a.id, b.id, AT);
          const inner = await uow.run(async () => {
            await follows.follow(a.id, c.id, AT);
            return 'inner';
          });
          expect(inner).toBe('inner');
          expect(await follows.isFollowing(a.id, c.id)).toBe(true);
          throw new Boom('after the inner unit');
        }),
      ).rejects.toBeInstanceOf(Boom);
      expect(await follows.isFollowing(a.id, b.id)).toBe(false);
      expect(await follows.isFollowing(a.id, c.id)).toBe(false);
    });

    it('a failure in a nested run, left to propagate, undoes the whole unit', async () => {
      const { uow, users, follows } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await expect(
        uow.run(async () => {
          await follows.follow(a.id, b.id, AT);
          await uow.run(async () => {
            await follows.follow(a.id, c.id, AT);
            throw new Boom('inner');
          });
        }),
      ).rejects.toBeInstanceOf(Boom);
      expect(await follows.isFollowing(a.id, b.id)).toBe(false);
      expect(await follows.isFollowing(a.id, c.id)).toBe(false);
    });

    it('writes of a repository that opens its own transaction join the unit and are undone with it', async () => {
      const { uow, users, groups } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      let id = 0;
      await expect(
        uow.run(async () => {
          id = await groups.create({ name: 'Undone', avatar: null, creator_id: a.id, created_at: AT }, [
            { user_id: a.id, role: 'admin' },
            { user_id: b.id, role: 'member' },
          ]);
          expect(await groups.members(id)).toHaveLength(2);
          throw new Boom('after the group');
        }),
      ).rejects.toBeInstanceOf(Boom);
      expect(id).toBeGreaterThan(0);
      expect(await groups.findById(id)).toBeNull();
      expect(await groups.members(id)).toEqual([]);
    });

    it('works again after a failed unit, and takes part in nothing once it has ended', async () => {
      const { uow, users, follows } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await expect(uow.run(async () => Promise.reject(new Boom('first')))).rejects.toBeInstanceOf(Boom);
      await uow.run(async () => {
        await follows.follow(a.id, b.id, AT);
      });
      // A write after the unit is on its own: a later failure elsewhere does not undo it.
      await follows.follow(a.id, c.id, AT);
      await expect(uow.run(async () => Promise.reject(new Boom('third')))).rejects.toBeInstanceOf(Boom);
      expect(await follows.isFollowing(a.id, b.id)).toBe(true);
      expect(await follows.isFollowing(a.id, c.id)).toBe(true);
    });

    it('a unit taking a group lock another unit holds reads, once it has it, what that one committed', async () => {
      const { uow, users, groups } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      const gid = await groups.create({ name: 'Locked', avatar: null, creator_id: a.id, created_at: AT }, [
        { user_id: a.id, role: 'admin' },
        { user_id: b.id, role: 'admin' },
        { user_id: c.id, role: 'member' },
      ]);
      const locked = gate();
      const release = gate();
      const first = uow.run(async () => {
        await groups.lockGroup(gid);
        locked.open();
        await groups.removeMember(gid, a.id);
        await release.opened;
      });
      await locked.opened;
      let seen: number[] = [];
      const second = uow.run(async () => {
        await groups.lockGroup(gid);
        seen = (await groups.members(gid)).map((m) => m.user_id);
      });
      await settle();
      release.open();
      await Promise.all([first, second]);
      expect(seen).toEqual([b.id, c.id]);
    });

    it('a unit taking the pair lock of two users, either way round, reads what the unit holding it committed', async () => {
      const { uow, users, friends } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const locked = gate();
      const release = gate();
      const first = uow.run(async () => {
        await friends.lockPair(a.id, b.id);
        locked.open();
        await friends.create(a.id, b.id, AT);
        await release.opened;
      });
      await locked.opened;
      let seen: string | null | undefined;
      const second = uow.run(async () => {
        await friends.lockPair(b.id, a.id);
        seen = (await friends.findBetween(a.id, b.id))?.status ?? null;
      });
      await settle();
      release.open();
      await Promise.all([first, second]);
      expect(seen).toBe('pending');
    });
  });
}
