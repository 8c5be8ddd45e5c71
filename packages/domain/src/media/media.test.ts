import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryMediaStore, InMemoryTranslationCache, FakeMediaInspector, FakeTranslator } from './testing/in-memory-media.js';
import { InMemoryUploadFiles, InMemoryUploads } from './testing/in-memory-uploads.js';
import { UploadCollector } from './upload-collection.js';
import { TranslationService } from './translation.js';
import { UploadService } from './upload.js';

const actor: Actor = { userId: 1, username: 'a', isAdmin: false, isModerator: false, isTechnician: false };

function uploads() {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const media = new InMemoryUploads(clock);
  const inspector = new FakeMediaInspector();
  const store = new InMemoryMediaStore(media.files);
  const files = new InMemoryUploadFiles(media.files);
  const service = new UploadService(inspector, store, media.registry, files, clock);
  return { clock, media, uploaded: media.files, registry: media.registry, files, inspector, store, service, references: media.references };
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
    expect((await references.require(actor, 'banner', stored.name, ['avatar'])).path).toBe(stored.path);
  });

  it('records each stored file with its owner, type, size and digest', async () => {
    const { inspector, service, registry } = uploads();
    inspector.types.set('/tmp/a', { ext: 'jpg', mime: 'image/jpeg' });
    const stored = await service.upload(actor, 'album', { path: '/tmp/a', originalName: 'a.jpg', size: 10 });
    expect(await registry.findByPath(stored.path)).toMatchObject({
      owner_id: actor.userId,
      type: 'album',
      path: stored.path,
      size: 1,
      sha256: '0'.repeat(64),
      created_at: '2026-05-01 10:00:00',
      referenced_at: null,
    });
  });

  it('removes the stored file when it cannot be recorded', async () => {
    const { inspector, service, registry, uploaded } = uploads();
    inspector.types.set('/tmp/a', { ext: 'jpg', mime: 'image/jpeg' });
    registry.record = async () => {
      throw new Error('database down');
    };
    await expect(service.upload(actor, 'posts', { path: '/tmp/a', originalName: 'a.jpg', size: 10 })).rejects.toThrow('database down');
    expect(uploaded.paths.size).toBe(0);
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
    await expect(service.upload(actor, 'posts', { path: '/tmp/video', originalName: 'a.mp4', size: 0 })).rejects.toMatchObject({
      code: 'empty_file',
    });
    await expect(
      service.upload(actor, 'posts', { path: '/tmp/video', originalName: 'a.mp4', size: 101 * 1024 * 1024 }),
    ).rejects.toMatchObject({ kind: 'payload_too_large' });
    expect(store.stored).toEqual([]);
    // A video where videos go, whatever container name of the family it was given.
    expect((await service.upload(actor, 'messages', file('/tmp/video', 'voice.m4a'))).path).toMatch(
      /^uploads\/messages\/messages_.*\.mp4$/,
    );
  });
});

describe('MediaReferences', () => {
  it('refuses a well-formed reference to a file that was never uploaded, keeps the placeholder and blanks', async () => {
    const { uploaded, media, references } = uploads();
    await expect(references.require(actor, 'media', 'media_abc.jpg', ['posts'])).rejects.toMatchObject({
      code: 'invalid_media',
      details: [{ field: 'media' }],
    });
    await expect(references.require(actor, 'media', '../../etc/passwd', ['posts'])).rejects.toMatchObject({ code: 'invalid_media' });
    // A file on disk that upload.php did not record (nobody owns it) is refused too.
    await uploaded.place('uploads/posts/media_disk.jpg');
    await expect(references.require(actor, 'media', 'media_disk.jpg', ['posts'])).rejects.toMatchObject({ code: 'invalid_media' });
    await media.place('uploads/posts/media_abc.jpg', actor.userId);
    expect(
      (await references.requireAll(actor, 'media', ['media_abc.jpg', 'uploads/posts/media_abc.jpg'], ['posts'])).map((r) => r.value),
    ).toEqual(['media_abc.jpg', 'uploads/posts/media_abc.jpg']);
    expect(await references.optional(actor, 'avatar', 'default.svg', ['avatar'], { placeholder: true })).toBe('default.svg');
    expect(await references.optional(actor, 'avatar', '  ', ['avatar'])).toBeNull();
    await expect(references.optional(actor, 'avatar', 'avatar_x.png', ['avatar'])).rejects.toMatchObject({ code: 'invalid_media' });
  });

  it('accepts the caller’s own upload only, or a teammate’s where the caller says who the team is, and marks it referenced', async () => {
    const { media, registry, uploaded, references, clock } = uploads();
    await media.place('uploads/albums/album_mine.jpg', 1);
    await media.place('uploads/albums/album_theirs.jpg', 2);
    await expect(references.require(actor, 'photo', 'album_theirs.jpg', ['album'])).rejects.toMatchObject({
      code: 'media_not_yours',
      details: [{ field: 'photo' }],
    });
    expect((await registry.findByPath('uploads/albums/album_theirs.jpg'))?.referenced_at).toBeNull();
    clock.advance(60_000);
    await references.require(actor, 'photo', 'album_mine.jpg', ['album']);
    expect((await registry.findByPath('uploads/albums/album_mine.jpg'))?.referenced_at).toBe('2026-05-01 10:01:00');
    const team = { userId: 1, teammate: async (owner: number) => owner === 2 };
    expect((await references.require(team, 'photo', 'album_theirs.jpg', ['album'])).path).toBe('uploads/albums/album_theirs.jpg');
    await expect(
      references.require({ userId: 1, teammate: async () => false }, 'photo', 'album_theirs.jpg', ['album']),
    ).rejects.toMatchObject({ code: 'media_not_yours' });
    // Recorded but gone from disk, or marked erased: refused as no upload.
    uploaded.paths.delete('uploads/albums/album_mine.jpg');
    await expect(references.require(actor, 'photo', 'album_mine.jpg', ['album'])).rejects.toMatchObject({ code: 'invalid_media' });
    await media.place('uploads/albums/album_mine2.jpg', 1);
    await registry.eraseOwner(1, '2026-05-02 00:00:00');
    await expect(references.require(actor, 'photo', 'album_mine2.jpg', ['album'])).rejects.toMatchObject({ code: 'invalid_media' });
  });

  it('refuses an upload whose recorded type does not fit the field', async () => {
    const { uploaded, registry, references } = uploads();
    // A posts upload recorded at an avatar path (what no upload makes, but a record may say).
    await uploaded.place('uploads/avatar_odd.jpg');
    await registry.record({
      owner_id: 1,
      type: 'posts',
      path: 'uploads/avatar_odd.jpg',
      size: 1,
      sha256: null,
      created_at: '2026-05-01 10:00:00',
    });
    await expect(references.require(actor, 'avatar', 'avatar_odd.jpg', ['avatar'])).rejects.toMatchObject({ code: 'invalid_media' });
  });
});

describe('UploadCollector', () => {
  it('removes unreferenced uploads older than the delay and the files of erased owners; keeps referenced and young ones', async () => {
    const { media, registry, uploaded, references, files, clock } = uploads();
    await media.place('uploads/posts/media_old.jpg', 1);
    await media.place('uploads/posts/media_used.jpg', 1);
    await references.require(actor, 'media', 'media_used.jpg', ['posts']);
    await media.place('uploads/posts/media_gone.jpg', 2);
    await references.require({ userId: 2 }, 'media', 'media_gone.jpg', ['posts']);
    clock.advance(25 * 3600_000);
    await media.place('uploads/posts/media_young.jpg', 1);
    await registry.eraseOwner(2, '2026-05-02 12:00:00');
    const collector = new UploadCollector(registry, files, clock, { orphanHours: 24, batch: 1 });
    expect(await collector.collect()).toEqual({ orphans: 1, erased: 1, missing: 0, failures: [] });
    expect([...uploaded.paths].sort()).toEqual(['uploads/posts/media_used.jpg', 'uploads/posts/media_young.jpg']);
    expect(registry.rows.map((r) => r.path).sort()).toEqual(['uploads/posts/media_used.jpg', 'uploads/posts/media_young.jpg']);
    // 0 turns the orphans' collection off; erased owners' files still go.
    clock.advance(48 * 3600_000);
    expect(await new UploadCollector(registry, files, clock, { orphanHours: 0 }).collect()).toEqual({
      orphans: 0,
      erased: 0,
      missing: 0,
      failures: [],
    });
    expect(uploaded.paths.has('uploads/posts/media_young.jpg')).toBe(true);
  });
});

describe('TranslationService', () => {
  it('translates once per identical request, and refuses what it must', async () => {
    const translator = new FakeTranslator();
    const service = new TranslationService(translator, new InMemoryTranslationCache());
    expect(await service.translate(actor, { text: 'hi', target_lang: 'fr' })).toEqual({
      text: '[fr] hi',
      detectedLanguage: 'en',
      cached: false,
    });
    expect((await service.translate(actor, { text: 'hi', target_lang: 'fr' })).cached).toBe(true);
    await Promise.all([1, 2, 3].map(() => service.translate(actor, { text: 'same', target_lang: 'de' })));
    expect(translator.calls).toBe(2);
    await expect(service.translate(actor, { text: 'x'.repeat(5001), target_lang: 'fr' })).rejects.toMatchObject({ code: 'text_too_long' });
    await expect(service.translate(actor, { text: 'hi', target_lang: 'fr; drop' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(service.translate(actor, { text: ' ', target_lang: 'fr' })).rejects.toMatchObject({ kind: 'invalid' });
    translator.down = true;
    await expect(service.translate(actor, { text: 'new', target_lang: 'fr' })).rejects.toMatchObject({ code: 'translation_unavailable' });
    await expect(
      new TranslationService(null, new InMemoryTranslationCache()).translate(actor, { text: 'hi', target_lang: 'fr' }),
    ).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
