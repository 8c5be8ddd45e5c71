import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';
import type { TotpVerifier } from '@plaza/domain/accounts';

// PHP two-factor libraries commonly issue 10-byte secrets, which otplib refuses by default.
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), accepting one step of clock drift either way. */
export class OtplibTotp implements TotpVerifier {
  async verify(secret: string, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code)) return false;
    try {
      const result = await verify({ secret, token: code, epochTolerance: 30, guardrails });
      return result.valid;
    } catch {
      return false;
    }
  }

  newSecret(): string {
    return generateSecret();
  }

  uri(issuer: string, label: string, secret: string): string {
    return generateURI({ issuer, label, secret });
  }

  /** The current code, for tests and the CLI. */
  current(secret: string): Promise<string> {
    return generate({ secret, guardrails });
  }
}
