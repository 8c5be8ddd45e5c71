import { readdirSync } from 'node:fs';
import { Invalid, NotFound } from '@plaza/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertUnambiguous, MethodNotAllowed, resolveOperation, type RawRequest } from './dispatcher.js';
import { op, type HttpMethod, type Script, type Selector } from './operation.js';

/** A do-nothing operation whose summary names it, so a test can tell which one was picked. */
function fake(method: HttpMethod, summary: string, select?: Selector) {
  return op({ method, select, summary, auth: 'none', response: z.object({}), handle: async () => ({}) });
}

/** Shaped like messages.php: selection by action (query or body) and by query keys. */
const messages: Script = {
  name: 'messages',
  operations: [
    fake('GET', 'typing', { has: ['typing_user_id'] }),
    fake('GET', 'thread', { has: ['user_id'] }),
    fake('GET', 'list'),
    fake('POST', 'signal typing', { action: 'typing' }),
    fake('POST', 'react', { action: 'react' }),
    fake('DELETE', 'unreact', { action: 'react' }),
    fake('POST', 'send'),
    fake('PUT', 'edit', { has: ['id'] }),
    fake('PUT', 'settings', { has: ['user_id'] }),
    fake('DELETE', 'delete one', { has: ['id'] }),
    fake('DELETE', 'delete thread', { has: ['user_id'] }),
  ],
};

/** Shaped like message-groups.php: selection by `?path=`. */
const groups: Script = {
  name: 'message-groups',
  operations: [
    fake('GET', 'groups', { path: '' }),
    fake('POST', 'create', { path: '' }),
    fake('GET', 'group', { path: ':id' }),
    fake('PUT', 'rename', { path: ':id' }),
    fake('GET', 'group messages', { path: ':id/messages' }),
    fake('POST', 'approve', { path: ':id/requests/:request_id/approve' }),
    fake('PUT', 'edit message', { path: 'messages/:id' }),
  ],
};

/** Shaped like friends.php: every POST needs an action. */
const friends: Script = {
  name: 'friends',
  operations: [
    fake('GET', 'list'),
    fake('POST', 'send', { action: 'send' }),
    fake('POST', 'accept', { action: 'accept' }),
    fake('DELETE', 'unfriend'),
  ],
};

function req(method: string, query: Record<string, string> = {}, body?: unknown): RawRequest {
  return { method, query, body };
}

const pick = (script: Script, r: RawRequest) => resolveOperation(script, r).operation.summary;

function failure(script: Script, r: RawRequest): unknown {
  try {
    resolveOperation(script, r);
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to be refused');
}

describe('resolveOperation', () => {
  it('selects by ?action=', () => {
    expect(pick(messages, req('POST', { action: 'typing' }))).toBe('signal typing');
    expect(pick(messages, req('DELETE', { action: 'react', message_id: '4' }))).toBe('unreact');
  });

  it('selects by a declared body action, and treats other requests without one as plain data', () => {
    expect(pick(messages, req('POST', {}, { action: 'react', message_id: 1 }))).toBe('react');
    expect(pick(messages, req('POST', {}, { user_id: 2, content: 'hi' }))).toBe('send');
  });

  it('selects by ?path= patterns and captures their integer segments', () => {
    expect(pick(groups, req('GET'))).toBe('groups');
    expect(pick(groups, req('POST', { path: '' }))).toBe('create');
    expect(resolveOperation(groups, req('GET', { path: '12' }))).toMatchObject({ operation: { summary: 'group' }, params: { id: '12' } });
    expect(resolveOperation(groups, req('POST', { path: '5/requests/7/approve' })).params).toEqual({ id: '5', request_id: '7' });
    expect(resolveOperation(groups, req('PUT', { path: 'messages/9' }))).toMatchObject({
      operation: { summary: 'edit message' },
      params: { id: '9' },
    });
  });

  it('selects by exactly the query keys the siblings declare, ignoring the others', () => {
    expect(pick(messages, req('GET', { user_id: '1' }))).toBe('thread');
    expect(pick(messages, req('GET', { typing_user_id: '1' }))).toBe('typing');
    expect(pick(messages, req('GET', { page: '2', id: '3' }))).toBe('list');
    expect(pick(messages, req('PUT', { id: '3' }))).toBe('edit');
    expect(pick(messages, req('PUT', { user_id: '3' }))).toBe('settings');
  });

  it('refuses two exclusive keys at once instead of letting declaration order decide', () => {
    const error = failure(messages, req('GET', { user_id: '1', typing_user_id: '2' }));
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).message).toContain('typing_user_id');
    expect((error as Invalid).details.map((d) => d.field)).toEqual(expect.arrayContaining(['typing_user_id', 'user_id']));
  });

  it('answers an unknown action with a 400 listing the valid ones', () => {
    for (const r of [req('POST', { action: 'nope' }), req('POST', {}, { action: 'nope' })]) {
      const error = failure(messages, r);
      expect(error).toBeInstanceOf(Invalid);
      expect(error).toMatchObject({ code: 'unknown_action' });
      expect((error as Invalid).message).toContain('react, typing');
    }
  });

  it('answers an unknown path with a 404', () => {
    for (const path of ['5/nope', 'abc', '5/requests/x/approve']) {
      const error = failure(groups, req('GET', { path }));
      expect(error, path).toBeInstanceOf(NotFound);
      expect(error).toMatchObject({ code: 'unknown_path' });
    }
  });

  it('answers 405 with the Allow list only when the method is really absent', () => {
    expect(failure(messages, req('PATCH'))).toEqual(new MethodNotAllowed(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']));
    expect((failure(friends, req('PUT')) as MethodNotAllowed).allow).toEqual(['GET', 'HEAD', 'POST', 'DELETE']);
    // The action or path named exists, but not with this method.
    expect((failure(messages, req('GET', { action: 'react' })) as MethodNotAllowed).allow).toEqual(['POST', 'DELETE']);
    expect((failure(groups, req('PUT', { path: '5/messages' })) as MethodNotAllowed).allow).toEqual(['GET', 'HEAD']);
    expect((failure(groups, req('POST', { path: '5' })) as MethodNotAllowed).allow).toEqual(['GET', 'HEAD', 'PUT']);
  });

  it('answers a declared method that misses its selector with a 400 naming what is missing, not a 405', () => {
    const put = failure(messages, req('PUT'));
    expect(put).toBeInstanceOf(Invalid);
    expect((put as Invalid).details.map((d) => d.field)).toEqual(['id', 'user_id']);
    const post = failure(friends, req('POST', {}, { user_id: 3 }));
    expect(post).toBeInstanceOf(Invalid);
    expect((post as Invalid).details.map((d) => d.field)).toEqual(['action']);
    expect((post as Invalid).message).toContain('action=accept');
    const rename = failure(groups, req('PUT'));
    expect(rename).toBeInstanceOf(Invalid);
    expect((rename as Invalid).details.map((d) => d.field)).toEqual(['path']);
  });

  it('serves HEAD as GET', () => {
    expect(pick(messages, req('HEAD', { user_id: '1' }))).toBe('thread');
    expect(pick(groups, req('head', { path: '3' }))).toBe('group');
    expect((failure(messages, req('HEAD', { action: 'react' })) as MethodNotAllowed).allow).toEqual(['POST', 'DELETE']);
  });
});

describe('assertUnambiguous', () => {
  const script = (...operations: Script['operations']): Script => ({ name: 'demo', operations });

  it('refuses two operations that one request can match, naming the script and both', () => {
    const cases: Script[] = [
      script(fake('GET', 'first'), fake('GET', 'second')),
      script(fake('GET', 'first', { has: ['id', 'x'] }), fake('GET', 'second', { has: ['x', 'id'] })),
      script(fake('POST', 'first', { action: 'a' }), fake('POST', 'second', { action: 'a' })),
      script(fake('PUT', 'first', { path: ':id' }), fake('PUT', 'second', { path: ':group_id' })),
      script(fake('PUT', 'first', { path: ':id/x' }), fake('PUT', 'second', { path: '5/x' })),
      script(fake('GET', 'first', { path: '' }), fake('GET', 'second')),
    ];
    for (const s of cases) {
      expect(() => assertUnambiguous(s)).toThrow(/^demo\.php: operations .*first.* and .*second.* can both match/);
    }
  });

  it('accepts operations that differ in method, action, path or has keys', () => {
    expect(() => assertUnambiguous(messages)).not.toThrow();
    expect(() => assertUnambiguous(groups)).not.toThrow();
    expect(() => assertUnambiguous(friends)).not.toThrow();
    expect(() => assertUnambiguous(script(fake('GET', 'a', { has: ['id'] }), fake('GET', 'b', { has: ['id', 'x'] })))).not.toThrow();
    expect(() => assertUnambiguous(script(fake('PUT', 'a', { path: ':id' }), fake('PUT', 'b', { path: 'messages' })))).not.toThrow();
  });

  it('accepts every real script', async () => {
    // Every `…Script` factory of src/scripts, so a new script is checked the day it is written. The
    // factories only capture their services, so a stub that answers anything reads the declarations.
    const stub: any = new Proxy(() => stub, { get: () => stub });
    const scripts: Script[] = [];
    const dir = new URL('../scripts/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const module: Record<string, unknown> = await import(new URL(file, dir).href);
      for (const [name, factory] of Object.entries(module)) {
        if (name.endsWith('Script') && typeof factory === 'function') scripts.push(factory(stub, stub, stub));
      }
    }
    expect(scripts.length).toBeGreaterThan(10);
    for (const s of scripts) expect(() => assertUnambiguous(s), s.name).not.toThrow();
    const real = scripts.find((s) => s.name === 'messages')!;
    expect(failure(real, req('GET', { user_id: '1', typing_user_id: '2' }))).toBeInstanceOf(Invalid);
    expect(resolveOperation(real, req('HEAD', { user_id: '1' })).operation.method).toBe('GET');
  });
});
