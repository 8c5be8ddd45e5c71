import { describe, expect, it } from 'vitest';
import { guardedDocumentLoader, PRELOADED_CONTEXTS } from './document-loader.js';
import { GuardedClient } from './ssrf.js';

describe('guarded document loader', () => {
  it('answers the contexts Fedify preloads from memory, without any request', async () => {
    const client = new GuardedClient({ allowPrivate: false });
    let requests = 0;
    client.fetch = async () => {
      requests += 1;
      throw new Error('no request expected');
    };
    const load = guardedDocumentLoader(client);
    for (const url of PRELOADED_CONTEXTS) {
      const doc = await load(url);
      expect(doc.document, url).toBeTypeOf('object');
    }
    expect(requests).toBe(0);
  });

  it('fetches everything else through the guarded client, which refuses private addresses', async () => {
    const load = guardedDocumentLoader(new GuardedClient({ allowPrivate: false }));
    await expect(load('http://127.0.0.1:9/actor')).rejects.toThrow(/is not a public address \(loopback\)/);
  });
});
