import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BcryptPasswordHasher } from './bcrypt-password-hasher.js';

describe('BcryptPasswordHasher', () => {
  const hasher = new BcryptPasswordHasher(4);

  it('writes $2y$ hashes that it verifies', async () => {
    const hash = await hasher.hash('s3cret pass');
    expect(hash.startsWith('$2y$04$')).toBe(true);
    expect(await hasher.verify('s3cret pass', hash)).toBe(true);
    expect(await hasher.verify('wrong', hash)).toBe(false);
  });

  it("verifies a hash made by PHP's password_hash()", async () => {
    // The example hash of the PHP manual's password_verify() page.
    const php = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
    expect(await hasher.verify('rasmuslerdorf', php)).toBe(true);
    expect(await hasher.verify('Rasmuslerdorf', php)).toBe(false);
  });

  it('verifies hashes labelled $2a$ and $2b$ (bcryptjs, other libraries) as well', async () => {
    const y = await hasher.hash('same password');
    for (const label of ['$2a$', '$2b$']) expect(await hasher.verify('same password', y.replace(/^\$2y\$/, label))).toBe(true);
  });

  it('hashes off the event loop: a timer keeps firing while a costly hash runs', async () => {
    const costly = new BcryptPasswordHasher(12);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    try {
      const started = Date.now();
      await costly.hash('a long computation');
      const elapsed = Date.now() - started;
      // bcryptjs on the main thread let no timer run for up to 100 ms at a time; here they run throughout.
      expect(elapsed).toBeGreaterThan(40);
      expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 5 / 4));
    } finally {
      clearInterval(timer);
    }
  });

  it('with one hash at a time, still answers every concurrent call, each with its own hash', async () => {
    const one = new BcryptPasswordHasher(4, 1);
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => one.hash(`password ${i}`)));
    const checks = await Promise.all(hashes.map((h, i) => one.verify(`password ${i}`, h)));
    expect(checks).toEqual(Array(6).fill(true));
    expect(await Promise.all(hashes.map((h, i) => one.verify(`password ${i + 1}`, h)))).toEqual(Array(6).fill(false));
  });

  it.runIf(existsSync('/proc/thread-self'))('hashes on threads at the lowest priority, the event loop keeping its own', async () => {
    const niceness = () =>
      readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
      );
    const before = niceness().filter((n) => n === 19).length;
    const own = new BcryptPasswordHasher(4, 2);
    await Promise.all([own.hash('one'), own.hash('two')]);
    expect(niceness().filter((n) => n === 19).length).toBe(before + 2);
    expect(Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16])).toBe(0);
  });

  it('refuses anything that is not a bcrypt hash', async () => {
    expect(await hasher.verify('x', 'plain:x')).toBe(false);
    expect(await hasher.verify('x', '')).toBe(false);
    // Labelled bcrypt but malformed: the hashing thread's error comes back as a refusal, and the thread serves on.
    expect(await hasher.verify('x', '$2y$10$too-short')).toBe(false);
    expect(await hasher.verify('s3cret pass', await hasher.hash('s3cret pass'))).toBe(true);
  });
});
