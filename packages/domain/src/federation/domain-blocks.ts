import type { Clock } from '../shared/clock.js';
import { Invalid } from '../shared/errors.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';

/**
 * What a domain block does (docs/decisions/0106):
 * - `suspend`: nothing in or out. Its signed inbox deliveries answer 403 and store nothing, our
 *   deliveries to it are dropped, its accounts cannot be looked up or followed, and its follows both
 *   ways and its stored notes are removed when the block is made.
 * - `silence`: its notes reach only the local accounts that follow their author (the fediverse feed);
 *   nothing of it is shown to anyone else (a remote profile's recent notes, to a non-follower).
 */
export const DOMAIN_BLOCK_SEVERITIES = ['suspend', 'silence'] as const;
export type DomainBlockSeverity = (typeof DOMAIN_BLOCK_SEVERITIES)[number];

export interface DomainBlock {
  /** A host name (ASCII, lower case, no port) or an IPv4 address; it covers its subdomains. */
  domain: string;
  severity: DomainBlockSeverity;
  reason: string;
  /** The administrator who blocked it (null once their account is gone). */
  created_by: number | null;
  created_at: Timestamp;
}

export const DOMAIN_BLOCK_REASON_MAX = 500;
const DOMAIN_MAX = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The domain an administrator typed, as it is stored, or Invalid with the reason: a bare host name
 * (`example.org`, `Example.ORG.` is the same), or an IPv4 address; no scheme, port, path, user or
 * wildcard (a block covers subdomains already), and non-ASCII names in their `xn--` form.
 */
export function normalizeBlockedDomain(input: string): string {
  const problem = (why: string) => Invalid.field('domain', why, 'invalid_domain');
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!domain) throw problem('name the domain to block, such as example.org');
  if (domain.length > DOMAIN_MAX) throw problem(`a domain has at most ${DOMAIN_MAX} characters`);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(domain) || domain.includes('/')) throw problem('write the domain alone, without http:// or a path');
  if (domain.includes(':') || domain.includes('[')) throw problem('write the domain without a port (IPv6 addresses are not accepted)');
  if (domain.includes('@')) throw problem('write the domain, not an account (example.org, not @user@example.org)');
  if (domain.startsWith('*.')) throw problem('write example.org: a block covers its subdomains already');
  if (/[^\x20-\x7e]/.test(domain)) throw problem('write a non-ASCII domain in its xn-- form');
  if (!domain.split('.').every((label) => LABEL.test(label)))
    throw problem('a domain is labels of letters, digits and hyphens separated by dots');
  return domain;
}

/** The host of an actor, inbox or key URL, or of a `host[:port]` (lower case, without port): what blocks are matched against. */
export function hostOf(urlOrHost: string): string | null {
  let host = urlOrHost.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return null;
    }
  } else {
    host = host.replace(/:\d+$/, '');
  }
  host = host.replace(/\.$/, '');
  return host || null;
}

/** Whether a block of `domain` covers `host`: the domain itself or one of its subdomains. */
export function domainCovers(domain: string, host: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The block that covers `host` (itself or a parent domain, as Mastodon matches), or null. */
export function blockCovering(host: string, blocks: ReadonlyMap<string, DomainBlock>): DomainBlock | null {
  if (blocks.size === 0) return null;
  let rest = host;
  for (;;) {
    const found = blocks.get(rest);
    if (found) return found;
    const dot = rest.indexOf('.');
    if (dot < 0) return null;
    rest = rest.slice(dot + 1);
  }
}

/** The administrators' list of blocked domains. */
export interface DomainBlockRepository {
  /** Stores the block unless the domain is blocked already (one conditional insert); true when this call stored it. */
  add(block: DomainBlock): Promise<boolean>;
  /** Removes the block and returns it; null when the domain was not blocked (of two concurrent removals, one gets it). */
  remove(domain: string): Promise<DomainBlock | null>;
  /** Every block, by domain (the list is small: an instance blocks tens or hundreds of servers). */
  all(): Promise<DomainBlock[]>;
}
export const DomainBlockRepository = token<DomainBlockRepository>('federation.DomainBlockRepository');

/** How long one instance trusts its copy of the list: with several instances, a block or unblock made on another one is seen within this. */
export const DOMAIN_BLOCKS_TTL_MS = 30_000;

/**
 * The check every inbound activity and outbound delivery makes: the list is read once per
 * `DOMAIN_BLOCKS_TTL_MS` (and again at once after a change made in this process), then matched in
 * memory, one map lookup per label of the host.
 */
export class DomainPolicy {
  private cached: { at: number; blocks: Map<string, DomainBlock> } | null = null;
  private loading: Promise<Map<string, DomainBlock>> | null = null;
  /** Bumped by `invalidate`: a read started before a change does not become the cached list. */
  private generation = 0;

  constructor(
    private readonly repository: DomainBlockRepository,
    private readonly clock: Clock,
    private readonly ttlMs = DOMAIN_BLOCKS_TTL_MS,
  ) {}

  /** The block covering the host of this URL (or `host[:port]`), or null. */
  async blockOf(urlOrHost: string): Promise<DomainBlock | null> {
    const host = hostOf(urlOrHost);
    if (!host) return null;
    return blockCovering(host, await this.blocks());
  }

  async isSuspended(urlOrHost: string): Promise<boolean> {
    return (await this.blockOf(urlOrHost))?.severity === 'suspend';
  }

  /** Forgets the cached list (after a block or unblock in this process). */
  invalidate(): void {
    this.generation += 1;
    this.cached = null;
    this.loading = null;
  }

  private async blocks(): Promise<Map<string, DomainBlock>> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.blocks;
    if (this.loading) return this.loading;
    // Concurrent checks after expiry share one read.
    const generation = this.generation;
    const loading = this.repository.all().then((list) => {
      const blocks = new Map(list.map((b) => [b.domain, b]));
      if (generation === this.generation) this.cached = { at: now, blocks };
      return blocks;
    });
    this.loading = loading;
    void loading
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      })
      .catch(() => {});
    return loading;
  }
}
