import { describe, expect, it } from 'vitest';
import type { TranslationCache, UploadedMedia } from '../ports.js';
import { parseMediaReference } from '../reference.js';

/**
 * `UploadedMedia`: `place(path)` puts a file where upload.php would have (`uploads/posts/media_x.jpg`),
 * `placeDirectory(path)` a directory, on the fake and on the file system alike.
 */
export function uploadedMediaContract(
  name: string,
  make: () => Promise<{ uploaded: UploadedMedia; place(path: string): Promise<void>; placeDirectory(path: string): Promise<void> }>,
) {
  describe(`${name}: uploaded media contract`, () => {
    const ref = (raw: string) => {
      const parsed = parseMediaReference(raw, ['posts', 'stories', 'messages', 'avatar', 'group', 'album', 'event']);
      if (!parsed) throw new Error(`not a reference: ${raw}`);
      return parsed;
    };

    it('knows a file that was placed, by bare name or by path, and no other', async () => {
      const { uploaded, place } = await make();
      const suffix = Math.random().toString(36).slice(2, 10);
      await place(`uploads/posts/media_${suffix}.jpg`);
      await place(`uploads/avatar_${suffix}.png`);
      const exists = (raw: string) => uploaded.exists(ref(raw));
      expect(await exists(`media_${suffix}.jpg`)).toBe(true);
      expect(await exists(`uploads/posts/media_${suffix}.jpg`)).toBe(true);
      expect(await exists(`uploads/avatar_${suffix}.png`)).toBe(true);
      expect(await exists(`banner_${suffix}.png`)).toBe(false);
      expect(await exists(`media_${suffix}.png`)).toBe(false);
      expect(await exists(`media_${suffix}x.jpg`)).toBe(false);
    });

    it('looks in the folder of the reference type only', async () => {
      const { uploaded, place } = await make();
      const suffix = Math.random().toString(36).slice(2, 10);
      // A post's name stored among the stories is not the post's file.
      await place(`uploads/stories/media_${suffix}.jpg`);
      expect(await uploaded.exists(ref(`media_${suffix}.jpg`))).toBe(false);
    });

    it('does not take a directory for a file', async () => {
      const { uploaded, placeDirectory } = await make();
      const suffix = Math.random().toString(36).slice(2, 10);
      await placeDirectory(`uploads/posts/media_${suffix}.jpg`);
      expect(await uploaded.exists(ref(`media_${suffix}.jpg`))).toBe(false);
    });
  });
}

/** `TranslationCache`: what was set for a target and a text is got back for exactly those. */
export function translationCacheContract(name: string, make: () => Promise<TranslationCache>) {
  describe(`${name}: translation cache contract`, () => {
    it('answers a translation set for the same target and text, and nothing else', async () => {
      const cache = await make();
      expect(await cache.get('fr', 'hello')).toBeNull();
      await cache.set('fr', 'hello', { text: 'bonjour', detectedLanguage: 'en' });
      expect(await cache.get('fr', 'hello')).toEqual({ text: 'bonjour', detectedLanguage: 'en' });
      expect(await cache.get('es', 'hello')).toBeNull();
      expect(await cache.get('fr', 'hello ')).toBeNull();
      expect(await cache.get('fr', 'Hello')).toBeNull();
    });

    it('replaces a translation set again', async () => {
      const cache = await make();
      await cache.set('de', 'hi', { text: 'hallo', detectedLanguage: null });
      await cache.set('de', 'hi', { text: 'servus', detectedLanguage: 'en' });
      expect(await cache.get('de', 'hi')).toEqual({ text: 'servus', detectedLanguage: 'en' });
    });
  });
}
