import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { InMemoryMediaStore, InMemoryTranslationCache, InMemoryUploadedMedia, FakeMediaInspector, FakeTranslator } from './testing/in-memory-media.js';
import { MediaReferences } from './references.js';
import { TranslationService } from './translation.js';
import { UploadService } from './upload.js';

const actor: Actor = { userId: 1, username: 'a', isAdmin: false, isModerator: false, isTechnician: false };

function uploads() {
  const uploaded = new InMemoryUploadedMedia();
  const inspector = new FakeMediaInspector();
  const store = new InMemoryMediaStore(uploaded);
  return { uploaded, inspector, store, service: new UploadService(inspector, store), references: new MediaReferences(uploaded) };
}

describe('UploadService', () => {
  it('stores under the folder and prefix of the type, with the sniffed extension, images re-encoded', async () => {
    const { inspector, store, service, references } = uploads();
    inspector.types.set('/tmp/a', { ext: 'png', mime: 'image/png' });
    const stored = await service.upload(actor, 'banner', { path: '/tmp/a', originalName: 'me.JPG', size: 10 });
    expect(stored).toMatchObject({ type: 'banner', kind: 'image', mime: 'image/png' });
    expect(stored.path).toMatch(/^uploads\/banner_[0-9a-f]+\.png$/);
    expect(store.stored[0].target).toMatchObject({ folder: 'uploads/', prefix: 'banner_', ext: 'png', image: true });
    // What upload stored is what a profile may reference.
    expect((await references.require('banner', stored.name, ['avatar'])).path).toBe(stored.path);
  });

  it('refuses unknown types (400), names and contents outside the list or the type (415), empty files (400)', async () => {
    const { inspector, store, service } = uploads();
    inspector.types.set('/tmp/video', { ext: 'mp4', mime: 'video/mp4' });
    inspector.types.set('/tmp/pdf', { ext: 'pdf', mime: 'application/pdf' });
    const file = (path: string, originalName: string) => ({ path, originalName, size: 5 });
    await expect(service.upload(actor, 'documents', file('/tmp/video', 'a.mp4'))).rejects.toMatchObject({ code: 'invalid_upload_type' });
    await expect(service.upload(actor, 'avatar', file('/tmp/video', 'a.mp4'))).rejects.toMatchObject({ kind: 'unsupported_media_type' });
    await expect(service.upload(actor, 'avatar', file('/tmp/video', 'a.jpg'))).rejects.toMatchObject({ kind: 'unsupported_media_type' });
    await expect(service.upload(actor, 'posts', file('/tmp/pdf', 'a.jpg'))).rejects.toMatchObject({ kind: 'unsupported_media_type' });
    await expect(service.upload(actor, 'posts', file('/tmp/unknown', 'a.jpg'))).rejects.toMatchObject({ kind: 'unsupported_media_type' });
    await expect(service.upload(actor, 'posts', file('/tmp/video', 'a.svg'))).rejects.toMatchObject({ kind: 'unsupported_media_type' });
    await expect(service.upload(actor, 'posts', { path: '/tmp/video', originalName: 'a.mp4', size: 0 })).rejects.toMatchObject({ code: 'empty_file' });
    await expect(service.upload(actor, 'posts', { path: '/tmp/video', originalName: 'a.mp4', size: 101 * 1024 * 1024 })).rejects.toMatchObject({ kind: 'payload_too_large' });
    expect(store.stored).toEqual([]);
    // A video where videos go, whatever container name of the family it was given.
    expect((await service.upload(actor, 'messages', file('/tmp/video', 'voice.m4a'))).path).toMatch(/^uploads\/messages\/messages_.*\.mp4$/);
  });
});

describe('MediaReferences', () => {
  it('refuses a well-formed reference to a file that was never uploaded, keeps the placeholder and blanks', async () => {
    const { uploaded, references } = uploads();
    await expect(references.require('media', 'media_abc.jpg', ['posts'])).rejects.toMatchObject({ code: 'invalid_media', details: [{ field: 'media' }] });
    await expect(references.require('media', '../../etc/passwd', ['posts'])).rejects.toMatchObject({ code: 'invalid_media' });
    await uploaded.place('uploads/posts/media_abc.jpg');
    expect((await references.requireAll('media', ['media_abc.jpg', 'uploads/posts/media_abc.jpg'], ['posts'])).map((r) => r.value)).toEqual(['media_abc.jpg', 'uploads/posts/media_abc.jpg']);
    expect(await references.optional('avatar', 'default.svg', ['avatar'], { placeholder: true })).toBe('default.svg');
    expect(await references.optional('avatar', '  ', ['avatar'])).toBeNull();
    await expect(references.optional('avatar', 'avatar_x.png', ['avatar'])).rejects.toMatchObject({ code: 'invalid_media' });
  });
});

describe('TranslationService', () => {
  it('translates once per identical request, and refuses what it must', async () => {
    const translator = new FakeTranslator();
    const service = new TranslationService(translator, new InMemoryTranslationCache());
    expect(await service.translate(actor, { text: 'hi', target_lang: 'fr' })).toEqual({ text: '[fr] hi', detectedLanguage: 'en', cached: false });
    expect((await service.translate(actor, { text: 'hi', target_lang: 'fr' })).cached).toBe(true);
    await Promise.all([1, 2, 3].map(() => service.translate(actor, { text: 'same', target_lang: 'de' })));
    expect(translator.calls).toBe(2);
    await expect(service.translate(actor, { text: 'x'.repeat(5001), target_lang: 'fr' })).rejects.toMatchObject({ code: 'text_too_long' });
    await expect(service.translate(actor, { text: 'hi', target_lang: 'fr; drop' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(service.translate(actor, { text: ' ', target_lang: 'fr' })).rejects.toMatchObject({ kind: 'invalid' });
    translator.down = true;
    await expect(service.translate(actor, { text: 'new', target_lang: 'fr' })).rejects.toMatchObject({ code: 'translation_unavailable' });
    await expect(new TranslationService(null, new InMemoryTranslationCache()).translate(actor, { text: 'hi', target_lang: 'fr' })).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
