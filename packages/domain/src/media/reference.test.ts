import { describe, expect, it } from 'vitest';
import { Invalid } from '../shared/errors.js';
import { MEDIA_PLACEHOLDER, optionalMediaField, parseMediaReference } from './reference.js';

describe('media references', () => {
  it('accepts what upload naming produces: a bare name, its relative path, that path under an origin', () => {
    expect(parseMediaReference('media_ab12.jpg', ['posts'])).toEqual({
      type: 'posts',
      name: 'media_ab12.jpg',
      path: 'uploads/posts/media_ab12.jpg',
      value: 'media_ab12.jpg',
    });
    expect(parseMediaReference('uploads/posts/media_ab12.JPG', ['posts'])?.value).toBe('uploads/posts/media_ab12.JPG');
    expect(parseMediaReference('/uploads/stories/story_1.mp4', ['stories'])?.value).toBe('uploads/stories/story_1.mp4');
    expect(parseMediaReference('https://main.example/uploads/avatar_64f1a2b3c4d5e.12345678.png', ['avatar'])?.value).toBe(
      'uploads/avatar_64f1a2b3c4d5e.12345678.png',
    );
    expect(parseMediaReference('messages_x.m4a', ['messages'])?.path).toBe('uploads/messages/messages_x.m4a');
    expect(parseMediaReference('msg_x.webm', ['messages'])?.type).toBe('messages');
    expect(parseMediaReference('group_post_1.jpg', ['posts'])?.path).toBe('uploads/posts/group_post_1.jpg');
    expect(parseMediaReference('uploads/group_a1.webp', ['group'])?.type).toBe('group');
  });

  it('refuses traversal, foreign folders, prefixes and extensions, and anything else', () => {
    const refused = [
      '../../etc/passwd',
      '..',
      '.',
      '',
      'passwd',
      'uploads/posts/../../../etc/media_x.jpg',
      'uploads/../media_x.jpg',
      '../media_x.jpg',
      'evil/media_x.jpg',
      'uploads/stories/media_x.jpg', // a post's name in the stories folder
      'uploads/messages/messages_x.jpg?x=1',
      'media_x.php',
      'media_x.jpg.php',
      'media_x.svg',
      'media_.jpg',
      'media_..jpg',
      'media_x..jpg',
      'media_x',
      'story_x.jpg', // a story's file where a post's is expected
      'group_x.jpg', // a group avatar where a post's is expected
      'MEDIA_x.jpg',
      'media_x y.jpg',
      'media_x\u0000.jpg',
      'media_%2e%2e.jpg',
      'javascript:alert(1)',
      '//evil.example/uploads/posts/media_x.jpg',
      'file:///etc/media_x.jpg',
      'https://evil.example/pixel.gif',
      `media_${'x'.repeat(200)}.jpg`,
      MEDIA_PLACEHOLDER,
    ];
    for (const raw of refused) expect(parseMediaReference(raw, ['posts']), raw).toBeNull();
    // The display resolves `group_post_…` to the posts folder: it is not a group avatar.
    expect(parseMediaReference('group_post_x.jpg', ['group'])).toBeNull();
    expect(parseMediaReference('messages_x.m4a', ['posts'])).toBeNull();
  });

  it('stores blank as none, keeps the placeholder where allowed, and refuses with the field named', () => {
    expect(optionalMediaField('avatar', null, ['avatar'], { placeholder: true })).toBeNull();
    expect(optionalMediaField('avatar', '  ', ['avatar'], { placeholder: true })).toBeNull();
    expect(optionalMediaField('avatar', 'default.svg', ['avatar'], { placeholder: true })).toBe('default.svg');
    expect(optionalMediaField('avatar', ' uploads/avatar_1.png ', ['avatar'], { placeholder: true })).toBe('uploads/avatar_1.png');
    expect(() => optionalMediaField('media', 'default.svg', ['messages'])).toThrow(Invalid);
    try {
      optionalMediaField('banner', '../../etc/passwd', ['avatar'], { placeholder: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_media', details: [{ field: 'banner' }] });
    }
  });
});
