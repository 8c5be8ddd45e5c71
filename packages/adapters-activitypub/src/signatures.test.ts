import { webcrypto } from 'node:crypto';
import { CryptographicKey, type DocumentLoader, signRequest, verifyRequest } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';
import { PRELOADED_CONTEXTS, guardedDocumentLoader } from './document-loader.js';
import { GuardedClient } from './ssrf.js';

/**
 * HTTP Signatures as Plaza uses them: the worker signs with Fedify's `signRequest`; the inboxes verify
 * with Fedify (through `federation.fetch`). Here both ends in isolation, with the key served by an
 * in-memory document loader.
 */
const ACTOR = 'https://remote.example/users/bob';
const KEY_ID = `${ACTOR}#main-key`;

async function keyPair() {
  return webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
}

async function loaderServing(publicKey: CryptoKeyLike): Promise<DocumentLoader> {
  const contexts = guardedDocumentLoader(new GuardedClient({ allowPrivate: false }));
  const key = await new CryptographicKey({ id: new URL(KEY_ID), owner: new URL(ACTOR), publicKey: publicKey as never }).toJsonLd({
    contextLoader: contexts,
  });
  return async (url) => {
    if (PRELOADED_CONTEXTS.includes(url)) return contexts(url);
    if (url === KEY_ID || url === ACTOR) return { contextUrl: null, documentUrl: url, document: key };
    throw new Error(`unexpected fetch of ${url}`);
  };
}
type CryptoKeyLike = Awaited<ReturnType<typeof keyPair>>['publicKey'];

const body = JSON.stringify({ type: 'Follow', actor: ACTOR, object: 'https://plaza.example/fediverse/actor.php?username=alice' });
const post = (payload = body) =>
  new Request('https://plaza.example/fediverse/inbox/alice', {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json' },
    body: payload,
  });

async function verify(request: Request, loader: DocumentLoader, now = Temporal.Now.instant()) {
  return verifyRequest(request, { documentLoader: loader, contextLoader: loader, currentTime: now, timeWindow: { hours: 1 } });
}

describe('HTTP Signatures', () => {
  it('signs (request-target), host, date and digest, and the signature verifies', async () => {
    const { publicKey, privateKey } = await keyPair();
    const signed = await signRequest(post(), privateKey as never, new URL(KEY_ID));
    const header = signed.headers.get('signature') ?? '';
    expect(/headers="([^"]*)"/.exec(header)?.[1].split(' ')).toEqual(
      expect.arrayContaining(['(request-target)', 'host', 'date', 'digest']),
    );
    expect(signed.headers.get('digest')).toMatch(/^SHA-256=/);
    const key = await verify(signed, await loaderServing(publicKey));
    expect(key?.id?.href).toBe(KEY_ID);
  });

  it('refuses a tampered body (the digest no longer matches)', async () => {
    const { publicKey, privateKey } = await keyPair();
    const signed = await signRequest(post(), privateKey as never, new URL(KEY_ID));
    const tampered = new Request(signed.url, { method: 'POST', headers: signed.headers, body: body.replace('Follow', 'Block') });
    expect(await verify(tampered, await loaderServing(publicKey))).toBeNull();
  });

  it('refuses a signature made with another key than the one the keyId names', async () => {
    const { publicKey } = await keyPair();
    const stranger = await keyPair();
    const signed = await signRequest(post(), stranger.privateKey as never, new URL(KEY_ID));
    expect(await verify(signed, await loaderServing(publicKey))).toBeNull();
  });

  it('refuses a Date more than an hour away, either way', async () => {
    const { publicKey, privateKey } = await keyPair();
    const loader = await loaderServing(publicKey);
    const signed = await signRequest(post(), privateKey as never, new URL(KEY_ID));
    const now = Temporal.Instant.from(new Date(signed.headers.get('date')!).toISOString());
    expect(await verify(signed.clone(), loader, now.add({ minutes: 59 }))).not.toBeNull();
    expect(await verify(signed.clone(), loader, now.add({ minutes: 61 }))).toBeNull();
    expect(await verify(signed.clone(), loader, now.subtract({ minutes: 61 }))).toBeNull();
  });
});
