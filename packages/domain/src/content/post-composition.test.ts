import { describe, expect, it } from 'vitest';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import { Invalid } from '../shared/errors.js';
import { composeComment, composeEdit, composePost, emptyPostOnField, MAX_POST_MEDIA } from './post-composition.js';

const rules = { maxLength: 20, emptyPost: emptyPostOnField };
const me = { userId: 7 };

async function withUploads(...names: string[]) {
  const uploads = new InMemoryUploads();
  for (const name of names) await uploads.place(`uploads/posts/${name}`, me.userId);
  return uploads.references;
}

describe('composePost, the one composition rule of every surface', () => {
  it('trims the content, names media by their file, infers the type from the first file and collects tags', async () => {
    const media = await withUploads('media_a.ogv', 'media_b.jpg');
    const post = await composePost(
      media,
      me,
      { content: '  #Hello you ', media: [' uploads/posts/media_a.ogv ', '', 'media_b.jpg'], tags: 'zed, ab' },
      rules,
    );
    expect(post).toEqual({
      content: '#Hello you',
      media: ['media_a.ogv', 'media_b.jpg'],
      media_type: 'video',
      tags: ['ab', 'hello', 'zed'],
    });
  });

  it('takes one file name as a string, and a blank media type as none given', async () => {
    const media = await withUploads('media_c.png');
    expect(await composePost(media, me, { media: 'media_c.png', media_type: ' ' }, rules)).toMatchObject({
      media: ['media_c.png'],
      media_type: 'image',
    });
    expect(await composePost(media, me, { content: 'no media', media_type: 'video' }, rules)).toMatchObject({
      media: [],
      media_type: null,
    });
  });

  it('refuses an empty post with the surface’s wording, a too long one, too many files and an unknown media type', async () => {
    const media = await withUploads('media_d.jpg');
    const pageWording = () => new Invalid('A page post needs content or media', 'empty_post');
    await expect(composePost(media, me, { content: ' ', media: [' '] }, { ...rules, emptyPost: pageWording })).rejects.toMatchObject({
      code: 'empty_post',
      message: 'A page post needs content or media',
    });
    await expect(composePost(media, me, { content: 'x'.repeat(21) }, rules)).rejects.toMatchObject({ code: 'invalid_input' });
    const many = Array.from({ length: MAX_POST_MEDIA + 1 }, () => 'media_d.jpg');
    await expect(composePost(media, me, { media: many }, rules)).rejects.toMatchObject({ message: 'media: at most 10 files' });
    await expect(composePost(media, me, { media: 'media_d.jpg', media_type: 'audio' }, rules)).rejects.toMatchObject({
      message: 'media_type: must be image or video',
    });
    await expect(composePost(media, me, { media: 'media_nope.jpg' }, rules)).rejects.toMatchObject({ code: 'invalid_media' });
  });

  it('edits and comments follow the same trim, emptiness and length', () => {
    expect(composeEdit(' new ', false, rules)).toBe('new');
    expect(composeEdit('  ', true, rules)).toBe('');
    expect(() => composeEdit('  ', false, rules)).toThrow(expect.objectContaining({ code: 'empty_post' }));
    expect(composeComment(' hi ', 5)).toBe('hi');
    expect(() => composeComment(' ', 5)).toThrow('content: must not be empty');
    expect(() => composeComment('toolong', 5)).toThrow('content: must be at most 5 characters');
  });
});
