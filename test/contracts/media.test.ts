import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FsUploadedMedia } from '@plaza/adapters-integrations/media';
import { LruTranslationCache } from '@plaza/adapters-integrations/translate';
import {
  InMemoryTranslationCache,
  InMemoryUploadedMedia,
  translationCacheContract,
  uploadedMediaContract,
} from '@plaza/domain/media/testing';
import { describe, expect, it } from 'vitest';

uploadedMediaContract('in-memory', async () => {
  const uploaded = new InMemoryUploadedMedia();
  return { uploaded, place: (path) => uploaded.place(path), placeDirectory: async () => {} };
});

uploadedMediaContract('file system', async () => {
  const root = mkdtempSync('/tmp/plaza-uploaded-media-');
  const at = (path: string) => join(root, path.replace(/^uploads\//, ''));
  return {
    uploaded: new FsUploadedMedia(root),
    async place(path) {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), 'x');
    },
    async placeDirectory(path) {
      mkdirSync(at(path), { recursive: true });
    },
  };
});

translationCacheContract('in-memory', async () => new InMemoryTranslationCache());
translationCacheContract('LRU', async () => new LruTranslationCache());

describe('LRU translation cache limits', () => {
  it('drops the least recently used entries beyond its entries and characters, and expired ones', async () => {
    let now = 0;
    const cache = new LruTranslationCache({ maxEntries: 2, maxChars: 1000, ttlMs: 1000 }, () => now);
    const t = (text: string) => ({ text, detectedLanguage: null });
    await cache.set('fr', 'a', t('A'));
    await cache.set('fr', 'b', t('B'));
    expect(await cache.get('fr', 'a')).toEqual(t('A')); // a is now the most recent
    await cache.set('fr', 'c', t('C'));
    expect(await cache.get('fr', 'b')).toBeNull();
    expect(await cache.get('fr', 'a')).toEqual(t('A'));
    now = 2000;
    expect(await cache.get('fr', 'a')).toBeNull();
    const small = new LruTranslationCache({ maxEntries: 100, maxChars: 30, ttlMs: 1000 }, () => now);
    await small.set('fr', 'x'.repeat(10), t('y'.repeat(10)));
    await small.set('fr', 'z'.repeat(10), t('w'.repeat(10)));
    expect(small.size).toBe(1);
    expect(await small.get('fr', 'z'.repeat(10))).not.toBeNull();
  });
});
