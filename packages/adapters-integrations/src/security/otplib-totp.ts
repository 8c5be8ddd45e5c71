import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';
import type { TotpVerifier } from '@plaza/domain/accounts';

// PHP two-factor libraries commonly issue 10-byte secrets, which otplib refuses by default.
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), accepting one step of clock drift either way. */
export class OtplibTotp implements TotpVerifier {
  async match(secret: string, code: string, at: Date): Promise<number | null> {
    if (!/^\d{6}$/.test(code)) return null;
    try {
      const result = await verify({ secret, token: code, epoch: Math.floor(at.getTime() / 1000), epochTolerance: 30, guardrails });
      // The functional API's types omit it, but a valid result carries the matched RFC 6238 step.
      return result.valid ? (result as { timeStep: number }).timeStep : null;
    } catch {
      return null;
    }
  }

  newSecret(): string {
    return generateSecret();
  }

  uri(issuer: string, label: string, secret: string): string {
    return generateURI({ issuer, label, secret });
  }

  /** The code of `at` (now by default), for tests and the CLI. */
  current(secret: string, at: Date = new Date()): Promise<string> {
    return generate({ secret, guardrails, epoch: Math.floor(at.getTime() / 1000) });
  }
}
