import { describe, expect, it } from 'vitest';
import { captureState, InMemoryUnitOfWork, type Snapshottable } from './index.js';

/** A fake with every kind of state a fake keeps: rows in an array, a map and a set, and a counter. */
class Fake implements Snapshottable {
  readonly rows: { id: number; name: string; tags: string[] }[] = [];
  readonly byKey = new Map<string, { n: number }>();
  readonly seen = new Set<string>();
  nextId = 1;
  snapshot() {
    const restore = captureState(this.rows, this.byKey, this.seen);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }
  add(name: string) {
    this.rows.push({ id: this.nextId++, name, tags: [] });
  }
}

describe('InMemoryUnitOfWork', () => {
  it('restores every participant in place when the work throws, deep changes included', async () => {
    const one = new Fake();
    const two = new Fake();
    one.add('kept');
    one.byKey.set('k', { n: 1 });
    const rows = one.rows;
    const uow = new InMemoryUnitOfWork(one, two);
    await expect(
      uow.run(async () => {
        one.add('undone');
        one.rows[0].name = 'renamed';
        one.rows[0].tags.push('x');
        one.byKey.get('k')!.n = 2;
        one.byKey.set('new', { n: 3 });
        one.seen.add('s');
        two.add('undone too');
        throw new Error('half-way');
      }),
    ).rejects.toThrow('half-way');
    expect(one.rows).toBe(rows);
    expect(one.rows).toEqual([{ id: 1, name: 'kept', tags: [] }]);
    expect([...one.byKey]).toEqual([['k', { n: 1 }]]);
    expect(one.seen.size).toBe(0);
    expect(one.nextId).toBe(2);
    expect(two.rows).toEqual([]);
    expect([uow.commits, uow.rollbacks]).toEqual([0, 1]);
  });

  it('keeps what a completed unit wrote and what was written outside any unit', async () => {
    const fake = new Fake();
    const uow = new InMemoryUnitOfWork(fake);
    fake.add('before');
    expect(await uow.run(async () => (fake.add('inside'), 'ok'))).toBe('ok');
    fake.add('after');
    await expect(uow.run(async () => Promise.reject(new Error('later')))).rejects.toThrow('later');
    expect(fake.rows.map((r) => r.name)).toEqual(['before', 'inside', 'after']);
    expect([uow.commits, uow.rollbacks]).toEqual([1, 1]);
  });

  it('joins a nested run: only the outermost snapshots, commits or restores', async () => {
    const fake = new Fake();
    let snapshots = 0;
    const counting: Snapshottable = { snapshot: () => (snapshots++, fake.snapshot()) };
    const uow = new InMemoryUnitOfWork(counting);
    await expect(
      uow.run(async () => {
        fake.add('outer');
        await uow.run(async () => {
          expect(uow.active).toBe(true);
          fake.add('inner');
        });
        throw new Error('outer fails after the inner unit');
      }),
    ).rejects.toThrow('outer fails');
    expect(fake.rows).toEqual([]);
    expect(snapshots).toBe(1);
    expect(uow.active).toBe(false);
    expect([uow.commits, uow.rollbacks]).toEqual([0, 1]);
  });
});
