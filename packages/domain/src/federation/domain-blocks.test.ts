import { describe, expect, it } from 'vitest';
import { ManualClock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { blockCovering, type DomainBlock, DomainPolicy, hostOf, normalizeBlockedDomain } from './domain-blocks.js';
import { FederationAdminService, type FederationDecisionLog } from './federation-admin.js';
import {
  InMemoryDomainBlockRepository,
  InMemoryFederationQueue,
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemotePostRepository,
} from './testing/index.js';

const aBlock = (domain: string, severity: DomainBlock['severity'] = 'suspend'): DomainBlock => ({
  domain,
  severity,
  reason: 'r',
  created_by: 1,
  created_at: '2026-01-01 00:00:00',
});

describe('the domain an administrator types', () => {
  it('is stored as a bare lower-case host name or IPv4 address', () => {
    expect(normalizeBlockedDomain('  Example.ORG. ')).toBe('example.org');
    expect(normalizeBlockedDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(normalizeBlockedDomain('203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeBlockedDomain('localhost')).toBe('localhost');
  });

  it.each([
    ['', 'name the domain'],
    ['https://example.org', 'without http://'],
    ['example.org/path', 'without http://'],
    ['example.org:443', 'without a port'],
    ['[2001:db8::1]', 'IPv6'],
    ['user@example.org', 'not an account'],
    ['*.example.org', 'subdomains already'],
    ['bücher.example', 'xn--'],
    ['-bad.example', 'labels'],
    ['a..b', 'labels'],
    ['under_score.example', 'labels'],
    [`${'a'.repeat(64)}.example`, 'labels'],
    [`${'abcdefghi.'.repeat(26)}org`, 'at most 253'],
  ])('refuses %j with a reason', (input, reason) => {
    let error: unknown;
    try {
      normalizeBlockedDomain(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).details[0]).toMatchObject({ field: 'domain', problem: expect.stringContaining(reason) });
  });
});

describe('matching a host against the blocks', () => {
  const blocks = new Map([aBlock('example.org'), aBlock('quiet.example', 'silence')].map((b) => [b.domain, b]));

  it('covers the domain and its subdomains, whatever the port, and nothing that only ends alike', () => {
    expect(blockCovering('example.org', blocks)?.domain).toBe('example.org');
    expect(blockCovering('a.b.example.org', blocks)?.domain).toBe('example.org');
    expect(blockCovering('notexample.org', blocks)).toBeNull();
    expect(blockCovering('example.org.evil', blocks)).toBeNull();
    expect(hostOf('https://A.Example.org:8443/users/x#main-key')).toBe('a.example.org');
    expect(hostOf('a.example.org:8443')).toBe('a.example.org');
    expect(hostOf('https://')).toBeNull();
  });

  it('reads the list once per TTL, at once after invalidate, and shares one read between concurrent checks', async () => {
    const repository = new InMemoryDomainBlockRepository();
    let reads = 0;
    const counting = {
      ...repository,
      add: repository.add.bind(repository),
      remove: repository.remove.bind(repository),
      all: async () => (reads++, repository.all()),
    };
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const policy = new DomainPolicy(counting, clock, 30_000);
    await repository.add(aBlock('example.org'));
    const checks = await Promise.all([policy.isSuspended('https://a.example.org/x'), policy.isSuspended('https://other.example/x')]);
    expect(checks).toEqual([true, false]);
    expect(reads).toBe(1);
    await repository.add(aBlock('other.example'));
    // Within the TTL another process's change is not seen yet…
    clock.advance(29_000);
    expect(await policy.isSuspended('https://other.example/x')).toBe(false);
    // …after it, it is.
    clock.advance(2_000);
    expect(await policy.isSuspended('https://other.example/x')).toBe(true);
    expect(reads).toBe(2);
    await repository.remove('other.example');
    policy.invalidate();
    expect(await policy.isSuspended('https://other.example/x')).toBe(false);
    expect(await policy.blockOf('quiet.example')).toBeNull();
    expect(reads).toBe(3);
  });
});

describe('FederationAdminService', () => {
  const uow = { run: (work: () => Promise<unknown>) => work(), afterCommit: (effect: () => void) => effect() } as unknown as UnitOfWork;
  function world() {
    const blocks = new InMemoryDomainBlockRepository();
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const actors = new InMemoryRemoteActorRepository();
    const follows = new InMemoryRemoteFollowRepository(actors);
    const posts = new InMemoryRemotePostRepository(follows);
    const queue = new InMemoryFederationQueue();
    const lines: string[] = [];
    const log: FederationDecisionLog = { record: async (e) => void lines.push(`${e.action_type} ${e.reason}`) };
    const policy = new DomainPolicy(blocks, clock);
    return {
      blocks,
      queue,
      lines,
      policy,
      service: new FederationAdminService(blocks, policy, follows, posts, queue, log, clock, uow, ['deliver']),
    };
  }
  // An administrator is a moderator too (the hierarchy of rolesOf).
  const admin = { userId: 1, username: 'root', isAdmin: true, isModerator: true, isTechnician: true };
  const moderator = { ...admin, userId: 2, isAdmin: false, isTechnician: false };
  const member = { ...moderator, userId: 3, isModerator: false };

  it('lets moderators read and administrators decide, and refuses everyone else', async () => {
    const { service, lines } = world();
    await expect(service.blocked(member)).rejects.toBeInstanceOf(Forbidden);
    await expect(service.deliveries(member, 'dead', { page: 1, perPage: 20 })).rejects.toBeInstanceOf(Forbidden);
    expect(await service.blocked(moderator)).toEqual([]);
    await expect(service.block(moderator, { domain: 'example.org', severity: 'suspend', reason: 'x' })).rejects.toMatchObject({
      code: 'not_admin',
    });
    await expect(service.retry(moderator, 1)).rejects.toMatchObject({ code: 'not_admin' });
    await expect(service.discard(moderator, 1)).rejects.toMatchObject({ code: 'not_admin' });
    expect(lines).toEqual([]);
  });

  it('blocks once, invalidates the cached list, and unblocks once, each with its log line', async () => {
    const { service, lines, policy } = world();
    expect(await policy.isSuspended('https://a.example.org/')).toBe(false);
    await service.block(admin, { domain: 'Example.org', severity: 'suspend', reason: ' spam ' });
    expect(await policy.isSuspended('https://a.example.org/')).toBe(true);
    await expect(service.block(admin, { domain: 'example.org', severity: 'silence', reason: 'again' })).rejects.toBeInstanceOf(Conflict);
    await expect(service.block(admin, { domain: 'b.example', severity: 'mute', reason: 'x' })).rejects.toMatchObject({
      code: 'invalid_severity',
    });
    await service.unblock(admin, 'example.org');
    expect(await policy.isSuspended('https://a.example.org/')).toBe(false);
    await expect(service.unblock(admin, 'example.org')).rejects.toBeInstanceOf(NotFound);
    expect(lines).toEqual([
      'block_domain example.org suspended (0 follows removed): spam',
      'unblock_domain example.org unblocked (it was suspended: spam)',
    ]);
  });

  it('retries and discards only what is there and free, logging each', async () => {
    const { service, queue, lines } = world();
    await queue.enqueue([{ channel: 'deliver', payload: {}, due_at: '2025-12-31 00:00:00' }]);
    await expect(service.retry(admin, 1)).rejects.toMatchObject({ code: 'delivery_busy' });
    await queue.claim('2026-01-01 00:00:00', 1, '2026-01-01 00:05:00');
    await expect(service.discard(admin, 1)).rejects.toMatchObject({ code: 'delivery_busy' });
    await queue.bury(1, 10, 'HTTP 500', '2026-01-01 00:00:00');
    expect((await service.deliveries(moderator, 'dead', { page: 1, perPage: 20 })).counts).toEqual({ pending: 0, failing: 0, dead: 1 });
    await service.retry(admin, 1);
    expect((await service.deliveries(admin, 'failing', { page: 1, perPage: 20 })).items.map((e) => e.id)).toEqual([1]);
    await service.discard(admin, 1);
    expect(lines).toEqual(['retry_delivery Delivery #1 retried', 'discard_delivery Delivery #1 discarded']);
  });
});
