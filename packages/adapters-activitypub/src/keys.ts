import { webcrypto } from 'node:crypto';
import { exportJwk, importJwk } from '@fedify/fedify';
import { type Clock, toTimestamp } from '@plaza/domain';
import type { ActorKeyRepository } from '@plaza/domain/federation';

type CryptoKey = Awaited<ReturnType<typeof importJwk>>;
type Jwk = Parameters<typeof importJwk>[0];

export interface UserKeys {
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

/**
 * Each local user's RSA key pair (RSASSA-PKCS1-v1_5, 2048 bits, SHA-256), generated the
 * first time it is needed (the actor document, a delivery) and stored as JWK. Two instances racing
 * to create one agree on the pair stored first. Imported keys are kept in memory: they never change.
 */
export class ActorKeys {
  private readonly cache = new Map<number, Promise<UserKeys>>();

  constructor(
    private readonly repository: ActorKeyRepository,
    private readonly clock: Clock,
  ) {}

  of(userId: number): Promise<UserKeys> {
    let pending = this.cache.get(userId);
    if (!pending) {
      pending = this.load(userId);
      this.cache.set(userId, pending);
      pending.catch(() => this.cache.delete(userId));
    }
    return pending;
  }

  /** Forgets a user's keys (account erased). */
  forget(userId: number): void {
    this.cache.delete(userId);
  }

  private async load(userId: number): Promise<UserKeys> {
    let stored = await this.repository.find(userId);
    if (!stored) {
      // 2048 bits, as Mastodon's own keys (Fedify's generateCryptoKeyPair makes 4096-bit keys, seconds of CPU each).
      const pair = await webcrypto.subtle.generateKey(
        { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        true,
        ['sign', 'verify'],
      );
      stored = await this.repository.insertIfAbsent({
        user_id: userId,
        public_jwk: JSON.stringify(await exportJwk(pair.publicKey)),
        private_jwk: JSON.stringify(await exportJwk(pair.privateKey)),
        created_at: toTimestamp(this.clock.now()),
      });
    }
    return {
      publicKey: await importJwk(JSON.parse(stored.public_jwk) as Jwk, 'public'),
      privateKey: await importJwk(JSON.parse(stored.private_jwk) as Jwk, 'private'),
    };
  }
}
