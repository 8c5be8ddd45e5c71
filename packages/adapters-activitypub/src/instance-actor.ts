import { webcrypto } from 'node:crypto';
import {
  Application,
  CryptographicKey,
  type DocumentLoader,
  Endpoints,
  exportJwk,
  getDocumentLoader,
  importJwk,
  type KvKey,
  type KvStore,
  type RemoteDocument,
  signRequest,
} from '@fedify/fedify';
import { ACTIVITY_ACCEPT, isJsonType, PRELOADED_CONTEXTS } from './document-loader.js';
import type { GuardedClient } from './ssrf.js';
import type { FederationUrls } from './urls.js';

type CryptoKey = Awaited<ReturnType<typeof importJwk>>;
type Jwk = Parameters<typeof importJwk>[0];
interface StoredPair {
  public_jwk: Jwk;
  private_jwk: Jwk;
}

const KEY: KvKey = ['plaza', 'instance-actor-key'];
// Only ever called with the preloaded contexts, which it answers from memory.
const fromMemory = getDocumentLoader();

/**
 * The instance's own actor (an `Application`, as Mastodon's instance actor): the signer of the
 * fetches Plaza makes in secure mode (docs/decisions/0201), answered unsigned at its id so that a
 * remote server can read its key. Its key pair (RSA 2048) lives in federation's key-value store,
 * made the first time it is needed; two instances racing to make it both read back the one stored
 * last, so at most a fetch or two are signed with a key nobody keeps (the remote answers 401 once).
 */
export class InstanceActor {
  private pair: Promise<{ publicKey: CryptoKey; privateKey: CryptoKey }> | null = null;

  constructor(
    private readonly urls: FederationUrls,
    private readonly kv: KvStore,
  ) {}

  keyId(): URL {
    return new URL(`${this.urls.instanceActor()}#main-key`);
  }

  keys(): Promise<{ publicKey: CryptoKey; privateKey: CryptoKey }> {
    if (!this.pair) {
      this.pair = this.load();
      this.pair.catch(() => {
        this.pair = null;
      });
    }
    return this.pair;
  }

  private async load(): Promise<{ publicKey: CryptoKey; privateKey: CryptoKey }> {
    let stored = await this.kv.get<StoredPair>(KEY);
    if (!stored) {
      const pair = await webcrypto.subtle.generateKey(
        { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        true,
        ['sign', 'verify'],
      );
      await this.kv.set(KEY, { public_jwk: await exportJwk(pair.publicKey), private_jwk: await exportJwk(pair.privateKey) });
      stored = (await this.kv.get<StoredPair>(KEY))!;
    }
    return { publicKey: await importJwk(stored.public_jwk, 'public'), privateKey: await importJwk(stored.private_jwk, 'private') };
  }

  async document(): Promise<Application> {
    const id = new URL(this.urls.instanceActor());
    return new Application({
      id,
      preferredUsername: this.urls.domain,
      name: this.urls.domain,
      inbox: new URL(this.urls.sharedInbox()),
      endpoints: new Endpoints({ sharedInbox: new URL(this.urls.sharedInbox()) }),
      url: id,
      manuallyApprovesFollowers: true,
      publicKey: new CryptographicKey({ id: this.keyId(), owner: id, publicKey: (await this.keys()).publicKey }),
    });
  }

  /**
   * A document loader that signs its GETs as this actor (draft-cavage, `(request-target) host date`),
   * through the guarded client: what a server in authorized-fetch mode requires of Plaza.
   */
  signedLoader(client: GuardedClient): DocumentLoader {
    const preloaded = new Set(PRELOADED_CONTEXTS);
    return async (url: string): Promise<RemoteDocument> => {
      if (preloaded.has(url)) return fromMemory(url);
      const unsigned = new Request(url, { method: 'GET', headers: { Accept: ACTIVITY_ACCEPT } });
      const signed = await signRequest(unsigned, (await this.keys()).privateKey, this.keyId());
      const response = await client.fetch(url, { headers: signed.headers });
      if (!response.ok) throw new Error(`HTTP ${response.status} fetching ${url}`);
      if (!isJsonType(response.headers.get('content-type'))) throw new Error(`${url} is not a JSON document`);
      const document = (await response.json()) as unknown;
      return { contextUrl: null, document, documentUrl: response.url || url };
    };
  }
}
