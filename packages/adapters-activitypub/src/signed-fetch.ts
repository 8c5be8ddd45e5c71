import { CryptographicKey, fetchKey, verifyRequest } from '@fedify/fedify';
import type { Loaders } from './mapping.js';

/** A fetch's `Date` may be an hour off either way (as for deliveries: federation.ts). */
const WINDOW_MS = 60 * 60 * 1000;

function parseSignature(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/**
 * The key that signed a GET (draft-cavage HTTP Signatures), or null. Fedify 1.5 verifies
 * `(request-target)` over the path alone, as Mastodon signs it; the draft, and servers that follow it,
 * sign the path with its query string, which every Note id here has (`?id=N`). Both are accepted:
 * Fedify's reading first, then the full target, checked here the same way (the key fetched through
 * the same guarded loaders, its `Date` within the hour, `(request-target)`, `host` and `date` signed).
 */
export async function verifySignedFetch(request: Request, loaders: Loaders): Promise<CryptographicKey | null> {
  const header = request.headers.get('signature');
  if (!header) return null;
  const options = { documentLoader: loaders.documentLoader, contextLoader: loaders.contextLoader };
  const key = await verifyRequest(request.clone(), { ...options, timeWindow: { hours: 1 } }).catch(() => null);
  const url = new URL(request.url);
  if (key || !url.search) return key;

  const sig = parseSignature(header);
  const names = (sig.headers ?? '').toLowerCase().split(/\s+/);
  if (!sig.keyId || !sig.signature || !['(request-target)', 'host', 'date'].every((n) => names.includes(n))) return null;
  const date = Date.parse(request.headers.get('date') ?? '');
  if (Number.isNaN(date) || Math.abs(Date.now() - date) > WINDOW_MS) return null;
  const message = names
    .map((name) =>
      name === '(request-target)'
        ? `${name}: ${request.method.toLowerCase()} ${url.pathname}${url.search}`
        : `${name}: ${name === 'host' ? (request.headers.get('host') ?? url.host) : (request.headers.get(name) ?? '')}`,
    )
    .join('\n');
  try {
    const { key: fetched } = await fetchKey(sig.keyId, CryptographicKey, options);
    if (!fetched?.publicKey) return null;
    const ok = await crypto.subtle.verify(
      'RSASSA-PKCS1-v1_5',
      fetched.publicKey,
      Buffer.from(sig.signature, 'base64'),
      new TextEncoder().encode(message),
    );
    return ok ? fetched : null;
  } catch {
    return null;
  }
}
