import { getDocumentLoader, kvCache, type DocumentLoader, type KvStore, type RemoteDocument } from '@fedify/fedify';
import type { GuardedClient } from './ssrf.js';

/**
 * The JSON-LD contexts Fedify 1.5.9 ships with (runtime/contexts.js): they resolve from memory, so
 * the common documents need no request at all. Any other URL goes through the guarded client.
 * document-loader.test.ts checks that each one resolves without a request.
 */
export const PRELOADED_CONTEXTS: readonly string[] = [
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  'https://w3id.org/security/data-integrity/v1',
  'https://www.w3.org/ns/did/v1',
  'https://w3id.org/security/multikey/v1',
  'https://w3id.org/identity/v1',
  'https://purl.archive.org/socialweb/webfinger',
  'http://schema.org/',
  'https://gotosocial.org/ns',
];
const PRELOADED = new Set(PRELOADED_CONTEXTS);
// Only ever called with the URLs above, which it answers from memory.
const preloaded = getDocumentLoader();

export const ACTIVITY_ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/** Whether a response's content type is JSON (activity+json, ld+json, jrd+json, json). */
export function isJsonType(contentType: string | null): boolean {
  return !!contentType && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.split(';')[0].trim());
}

/** Fedify's document loader, on the SSRF-guarded client (DESIGN.md §1.4). */
export function guardedDocumentLoader(client: GuardedClient): DocumentLoader {
  return async (url: string): Promise<RemoteDocument> => {
    if (PRELOADED.has(url)) return preloaded(url);
    const response = await client.fetch(url, { headers: { Accept: ACTIVITY_ACCEPT } });
    if (!response.ok) throw new Error(`HTTP ${response.status} fetching ${url}`);
    if (!isJsonType(response.headers.get('content-type'))) throw new Error(`${url} is not a JSON document`);
    const document = (await response.json()) as unknown;
    return { contextUrl: null, document, documentUrl: response.url || url };
  };
}

/** The loaders federation uses: the guarded one, behind Fedify's cache of remote documents in the store. */
export interface FederationLoaders {
  documentLoader: DocumentLoader;
  contextLoader: DocumentLoader;
  /** Uncached (signed fetches must not be cached). */
  guarded: DocumentLoader;
}

/** `base`: the loader under the cache instead of the plain guarded one (the instance actor's signed one, in secure mode). */
export function federationLoaders(client: GuardedClient, kv: KvStore, base?: DocumentLoader): FederationLoaders {
  const guarded = base ?? guardedDocumentLoader(client);
  const documentLoader = kvCache({ loader: guarded, kv, prefix: ['_fedify', 'remoteDocument'] });
  return { documentLoader, contextLoader: documentLoader, guarded };
}
