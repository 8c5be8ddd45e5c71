import { createHash, createSign, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * HTTP Signatures as Mastodon documents them (docs.joinmastodon.org/spec/security), written here
 * without Fedify so that Plaza is not only checked by the library that signs for it:
 * - a `Signature` header with `keyId`, `headers` and `signature` (RSA-SHA256);
 * - the signed headers include `(request-target)`, `host` and `date`, and `digest` for a POST;
 * - a POST carries `Digest: SHA-256=<base64 of the SHA-256 of the exact body>`;
 * - `Date` is within twelve hours of now;
 * - `keyId` resolves to an actor (the key's document, or the actor document holding it) whose
 *   `publicKey.id` is the keyId and whose `publicKey.owner` is that actor's id;
 * - the activity's `actor` is the key's owner.
 */
export interface Verdict {
  ok: boolean;
  reason: string;
  keyOwner?: string;
}

function parseSignature(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

const fetchJson = async (url: string) => {
  const res = await fetch(url, { headers: { Accept: 'application/activity+json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  return (await res.json()) as Record<string, any>;
};

/** Keys of the actors verified before, by key id (as Mastodon stores a known account's key). */
const knownKeys = new Map<string, { actor: Record<string, any>; key: Record<string, any> }>();

export async function verifyStrictly(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  body: Buffer,
  now = new Date(),
): Promise<Verdict> {
  const sigHeader = headers['signature'];
  if (!sigHeader) return { ok: false, reason: 'no Signature header' };
  const sig = parseSignature(sigHeader);
  if (!sig.keyId || !sig.headers || !sig.signature) return { ok: false, reason: 'incomplete Signature header' };
  const signed = sig.headers.toLowerCase().split(/\s+/);
  for (const required of ['(request-target)', 'host', 'date', ...(method === 'POST' ? ['digest'] : [])]) {
    if (!signed.includes(required)) return { ok: false, reason: `${required} not signed` };
  }
  if (method === 'POST') {
    const digest = headers['digest'];
    if (!digest) return { ok: false, reason: 'no Digest header' };
    const expected = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
    if (
      !digest
        .split(',')
        .map((d) => d.trim())
        .some((d) => d.toLowerCase().startsWith('sha-256=') && `SHA-256=${d.slice(8)}` === expected)
    )
      return { ok: false, reason: 'digest mismatch' };
  }
  const date = Date.parse(headers['date'] ?? '');
  if (Number.isNaN(date) || Math.abs(now.getTime() - date) > 12 * 3600 * 1000)
    return { ok: false, reason: 'Date missing or outside 12 hours' };

  let actor: Record<string, any>;
  let key: Record<string, any>;
  try {
    const keyDoc = await fetchJson(sig.keyId.split('#')[0]);
    actor = keyDoc;
    if (typeof keyDoc.publicKeyPem === 'string' && typeof keyDoc.owner === 'string') actor = await fetchJson(keyDoc.owner);
    const keys = Array.isArray(actor.publicKey) ? actor.publicKey : [actor.publicKey];
    const found = keys.find((k: any) => k && k.id === sig.keyId);
    if (!found) return { ok: false, reason: 'the actor has no publicKey with that id' };
    if (found.owner !== actor.id) return { ok: false, reason: 'publicKey.owner is not the actor' };
    if (typeof found.publicKeyPem !== 'string') return { ok: false, reason: 'no publicKeyPem' };
    key = found;
    knownKeys.set(sig.keyId, { actor, key });
  } catch (error) {
    // Mastodon keeps the key of an account it knows: a Delete(Person) of an actor now gone verifies with it.
    const known = knownKeys.get(sig.keyId);
    if (!known) return { ok: false, reason: `keyId does not resolve: ${(error as Error).message}` };
    ({ actor, key } = known);
  }

  const message = signed
    .map((name) => (name === '(request-target)' ? `(request-target): ${method.toLowerCase()} ${path}` : `${name}: ${headers[name] ?? ''}`))
    .join('\n');
  const verifier = createVerify('RSA-SHA256');
  verifier.update(message);
  if (!verifier.verify(key.publicKeyPem, Buffer.from(sig.signature, 'base64'))) return { ok: false, reason: 'signature does not verify' };
  if (method === 'POST') {
    const activity = JSON.parse(body.toString('utf8')) as { actor?: unknown };
    const activityActor = typeof activity.actor === 'string' ? activity.actor : (activity.actor as { id?: string } | undefined)?.id;
    if (activityActor !== actor.id) return { ok: false, reason: 'the activity actor is not the signer' };
  }
  return { ok: true, reason: 'verified', keyOwner: actor.id };
}

export interface StrictServer {
  origin: string;
  actorUrl: string;
  keyId: string;
  /** Each inbox delivery with its verdict and parsed body. */
  deliveries: { verdict: Verdict; activity: any }[];
  /** Notes listed by the outbox, each also served at its id when that is on this origin. */
  notes: { id: string; content: string; published: string }[];
  /** Each GET of the actor document with the verdict on its signature (unsigned: not ok). */
  actorFetches: Verdict[];
  /** A GET signed as this actor (draft-cavage, `(request-target) host date`), as Mastodon signs its fetches. */
  signedGet(url: string, accept?: string): Promise<Response>;
  /** Signs a POST as this actor (draft-cavage, `(request-target) host date digest`). */
  signedPost(
    url: string,
    activity: unknown,
    options?: { date?: Date; tamper?: boolean; privateKeyPem?: string; headers?: string[] },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A loopback server with one actor whose inbox accepts only what `verifyStrictly` accepts. */
export async function startStrictServer(): Promise<StrictServer> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const deliveries: StrictServer['deliveries'] = [];
  const notes: StrictServer['notes'] = [];
  const actorFetches: Verdict[] = [];
  let origin = '';
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/activity+json' });
        res.end(JSON.stringify(value));
      };
      const path = req.url ?? '/';
      if (req.method === 'GET' && path === '/actor') {
        // Who fetched it, signed or not (recorded after the answer: verifying may fetch the signer's key).
        if (req.headers.signature) {
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
          setImmediate(() => void verifyStrictly('GET', path, headers, body).then((v) => actorFetches.push(v)));
        } else actorFetches.push({ ok: false, reason: 'unsigned' });
        return json(200, {
          '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
          id: `${origin}/actor`,
          type: 'Person',
          preferredUsername: 'strict',
          name: 'Strict Verifier',
          inbox: `${origin}/inbox`,
          outbox: `${origin}/outbox`,
          publicKey: { id: `${origin}/actor#main-key`, owner: `${origin}/actor`, publicKeyPem },
        });
      }
      if (req.method === 'GET' && path === '/outbox') {
        return json(200, {
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${origin}/outbox`,
          type: 'OrderedCollection',
          totalItems: notes.length,
          orderedItems: notes.map((n) => ({
            id: `${n.id}#create`,
            type: 'Create',
            actor: `${origin}/actor`,
            object: {
              id: n.id,
              type: 'Note',
              attributedTo: `${origin}/actor`,
              content: n.content,
              published: n.published,
              to: ['https://www.w3.org/ns/activitystreams#Public'],
            },
          })),
        });
      }
      // A note of the outbox at its id (what Plaza fetches to react or reply to it).
      const served = req.method === 'GET' ? notes.find((n) => n.id === `${origin}${path}`) : undefined;
      if (served) {
        return json(200, {
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: served.id,
          type: 'Note',
          attributedTo: `${origin}/actor`,
          content: served.content,
          published: served.published,
          to: ['https://www.w3.org/ns/activitystreams#Public'],
        });
      }
      if (req.method === 'POST' && path === '/inbox') {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
        void verifyStrictly('POST', path, headers, body).then((verdict) => {
          let activity: unknown = null;
          try {
            activity = JSON.parse(body.toString('utf8'));
          } catch {
            /* recorded as null */
          }
          deliveries.push({ verdict, activity });
          res.writeHead(verdict.ok ? 202 : 401);
          res.end();
        });
        return;
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keyId = `${origin}/actor#main-key`;

  return {
    origin,
    actorUrl: `${origin}/actor`,
    keyId,
    deliveries,
    notes,
    actorFetches,
    async signedGet(url, accept = 'application/activity+json') {
      const u = new URL(url);
      const date = new Date().toUTCString();
      const names = ['(request-target)', 'host', 'date'];
      const values: Record<string, string> = { '(request-target)': `get ${u.pathname}${u.search}`, host: u.host, date };
      const signer = createSign('RSA-SHA256');
      signer.update(names.map((n) => `${n}: ${values[n]}`).join('\n'));
      const signature = signer.sign(privateKeyPem, 'base64');
      return fetch(url, {
        headers: {
          Accept: accept,
          Date: date,
          Signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`,
        },
      });
    },
    async signedPost(url, activity, options = {}) {
      const body = JSON.stringify(activity);
      const u = new URL(url);
      const date = (options.date ?? new Date()).toUTCString();
      const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
      const names = options.headers ?? ['(request-target)', 'host', 'date', 'digest'];
      const values: Record<string, string> = { '(request-target)': `post ${u.pathname}${u.search}`, host: u.host, date, digest };
      const signer = createSign('RSA-SHA256');
      signer.update(names.map((n) => `${n}: ${values[n]}`).join('\n'));
      const signature = signer.sign(options.privateKeyPem ?? privateKeyPem, 'base64');
      return fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/activity+json',
          Date: date,
          Digest: digest,
          Signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`,
        },
        body: options.tamper ? body.replace('}', ',"tampered":true}') : body,
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An RSA private key that is nobody's (the "wrong key" case). */
export function aStrangerKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export const newActivityId = (origin: string) => `${origin}/activities/${randomUUID()}`;
