import { createHash, randomBytes } from 'node:crypto';
import type { SecretTokens } from '@plaza/domain/accounts';

/** 256-bit random tokens, base64url; stored only as their SHA-256 hex digest. */
export class NodeCryptoSecretTokens implements SecretTokens {
  generate(): string {
    return randomBytes(32).toString('base64url');
  }
  hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}
