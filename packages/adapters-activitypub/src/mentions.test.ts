import { MemoryKvStore } from '@fedify/fedify';
import type { RemoteActor } from '@plaza/domain/federation';
import { describe, expect, it } from 'vitest';
import { linkHashtags, linkMentions, MentionResolver, type ResolvedMention, withMentions } from './mentions.js';
import { noteHtml } from './outbox.js';

const bob: ResolvedMention = {
  handle: '@bob@h.test',
  actor_url: 'https://h.test/users/bob',
  inbox: 'https://h.test/inbox',
  profile_url: 'https://h.test/@bob',
};

describe('linkHashtags', () => {
  it("links the post's tags as Mastodon does, never inside an entity", () => {
    const html = noteHtml("It's #Plaza and #other, not &#39; or #39");
    expect(linkHashtags(html, ['plaza'], (t) => `https://p.test/tag?t=${t}`)).toBe(
      '<p>It&#39;s <a href="https://p.test/tag?t=plaza" class="mention hashtag" rel="tag">#<span>Plaza</span></a> and #other, not &amp;#39; or #39</p>',
    );
  });
});

describe('linkMentions and withMentions', () => {
  it('links each resolved handle in an h-card, and only whole handles', () => {
    expect(linkMentions('<p>@bob@h.test, @bob@h.test.other @BOB@h.test</p>', [bob])).toBe(
      '<p><span class="h-card"><a href="https://h.test/@bob" class="u-url mention">@<span>bob</span></a></span>, @bob@h.test.other ' +
        '<span class="h-card"><a href="https://h.test/@bob" class="u-url mention">@<span>bob</span></a></span></p>',
    );
  });

  it("adds the Mention tag and cc's the actor on a Note's activity; a Delete is unchanged", () => {
    const create = {
      type: 'Create',
      cc: 'https://p.test/followers',
      object: { type: 'Note', content: '<p>hi @bob@h.test</p>', tag: { type: 'Hashtag' } },
    };
    expect(withMentions(create, [bob])).toMatchObject({
      cc: ['https://p.test/followers', bob.actor_url],
      object: {
        cc: [bob.actor_url],
        tag: [{ type: 'Hashtag' }, { type: 'Mention', href: bob.actor_url, name: bob.handle }],
        content: expect.stringContaining('class="u-url mention"'),
      },
    });
    const del = { type: 'Delete', object: { type: 'Tombstone', id: 'x' } };
    expect(withMentions(del, [bob])).toBe(del);
  });
});

describe('MentionResolver', () => {
  const actor: RemoteActor = {
    actor_url: bob.actor_url,
    inbox_url: 'https://h.test/users/bob/inbox',
    shared_inbox_url: bob.inbox,
    outbox_url: null,
    username: 'bob',
    display_name: 'Bob',
    domain: 'h.test',
    avatar: null,
    summary: '',
    profile_url: bob.profile_url,
    fetched_at: '2026-11-27 00:00:00',
  };

  it('resolves once and answers from the cache; failures, missing accounts and suspended domains stay unresolved', async () => {
    const asked: string[] = [];
    const resolver = new MentionResolver({
      kv: new MemoryKvStore(),
      suspended: { isSuspended: async (u) => u.includes('blocked.test') },
      resolve: async (handle) => {
        asked.push(handle);
        if (handle === '@down@h.test') throw new Error('timeout');
        return handle === '@bob@h.test' ? actor : null;
      },
    });
    expect(await resolver.cached(['@bob@h.test'])).toEqual([]);
    const handles = ['@bob@h.test', '@nobody@h.test', '@down@h.test', '@eve@blocked.test'];
    expect(await resolver.resolve(handles)).toEqual([bob]);
    expect(await resolver.resolve(handles)).toEqual([bob]);
    expect(await resolver.cached(['@bob@h.test'])).toEqual([bob]);
    // Each is asked once (a failure is remembered as unresolved, an hour); the suspended domain never.
    expect(asked).toEqual(['@bob@h.test', '@nobody@h.test', '@down@h.test']);
  });
});
