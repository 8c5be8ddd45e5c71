import { Invalid, ManualClock } from '@plaza/domain';
import { actorOf, UserRepository } from '@plaza/domain/accounts';
import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../../test/support/database.js';
import { closeLibraryPlaza, openLibraryPlaza } from '../../../test/support/library-plaza.js';
import type { InputRules } from './library-input.js';
import { LIBRARY_INPUT_RULES, type Plaza } from './library.js';

/** Issue 27 item 5, docs/decisions/0113: what the library hands out, and what it accepts from plain JavaScript. */
let database: TestDatabase;
let plaza: Plaza;
const clock = new ManualClock('2026-06-01T09:00:00Z');
const totp = new OtplibTotp();
beforeAll(async () => {
  ({ plaza, database } = await openLibraryPlaza('library', clock));
});
afterAll(() => closeLibraryPlaza({ plaza, database }));

const SECRET_KEYS = /^(password_hash|totp_secret|totp_last_step|token_hash|code_hash)$/;
/** bcrypt hashes, and the hex digests tokens and recovery codes are stored under. */
const HASH_LIKE = /^\$2[aby]\$\d\d\$|^[0-9a-f]{64}$/i;

/** Every key and string value reachable from `value`, with its path, for a deep scan. */
function* walk(value: unknown, path = '$', seen = new Set<unknown>()): Generator<{ path: string; key: string | null; value: unknown }> {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  for (const [key, inner] of Object.entries(value)) {
    yield { path: `${path}.${key}`, key, value: inner };
    yield* walk(inner, `${path}.${key}`, seen);
  }
}

/** The places in `value` that hold a secret: a secret's key, a hash-like string, or one of `known` (the TOTP secret). */
function secretsIn(value: unknown, known: string[] = []): string[] {
  return [...walk(value)].flatMap(({ path, key, value: v }) =>
    (key !== null && SECRET_KEYS.test(key)) || (typeof v === 'string' && (HASH_LIKE.test(v) || known.includes(v))) ? [path] : [],
  );
}

describe('the library boundary', () => {
  it('registers, logs in, refreshes and shows profiles without a secret anywhere in what it returns', async () => {
    const { accounts } = plaza;
    const ada = await accounts.auth.register({ username: 'ada_lib', email: 'ada@example.test', password: 'a long password' });
    expect(ada).toMatchObject({ id: expect.any(Number), username: 'ada_lib', email: 'ada@example.test', totp_enabled: false });
    expect(secretsIn(ada)).toEqual([]);
    const actor = actorOf(ada);

    // Two-factor on: its secret exists in the database from now on, and must appear in no answer.
    const { secret } = await accounts.twoFactor.status(actor);
    await accounts.twoFactor.enable(actor, await totp.current(secret!, clock.now()));
    clock.advance(30_000);
    const login = await accounts.auth.login({
      login: 'ada_lib',
      password: 'a long password',
      totp: await totp.current(secret!, clock.now()),
    });
    expect(login.kind).toBe('token');
    const issued = login.kind === 'token' ? login.issued : null;
    const refreshed = await accounts.auth.refresh(issued!.token);
    const answers = {
      login,
      refreshed,
      view: await accounts.profiles.view(actor),
      update: await accounts.profiles.update(actor, { bio: 'Counting engines' }),
      status: await accounts.twoFactor.status(actor),
      post: await plaza.content.posts.create(actor, { content: 'Hello from a script', media: [], media_type: null, tags: [] }),
    };
    expect(secretsIn(answers, [secret!])).toEqual([]);

    const bob = await accounts.auth.register({ username: 'bob_lib', email: 'bob@example.test', password: 'another long password' });
    await plaza.social.follows.follow(actorOf(bob), ada.id);
    const followers = await plaza.social.follows.list(actorOf(bob), ada.id, 'followers', { page: 1, perPage: 20 });
    expect(followers.users.map((u) => u.id)).toEqual([bob.id]);
    expect(secretsIn(followers, [secret!])).toEqual([]);
    // The scan sees a secret where there is one: the repository reader named for it.
    expect(secretsIn(await plaza.get(UserRepository).findWithSecrets(ada.id), [secret!]).length).toBeGreaterThan(0);
  });

  it('answers bad input from plain JavaScript with the Invalid HTTP answers, and changes nothing', async () => {
    const user = await plaza.accounts.auth.register({ username: 'cy_lib', email: 'cy@example.test', password: 'a long password' });
    const actor = actorOf(user);
    const untyped = plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;
    const refusal = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Invalid);
      return error as Invalid;
    };

    const post = await refusal(untyped.content.posts.create(actor, { content: 42 }));
    expect(post).toMatchObject({ code: 'invalid_input', details: [{ field: 'content', problem: expect.any(String) }] });
    expect(
      (await refusal(untyped.accounts.auth.register({ username: 5, email: 'x@example.test', password: 'a long password' }))).details[0]
        .field,
    ).toBe('username');
    expect((await refusal(untyped.accounts.profiles.update(actor, { bio: { no: 'object' } }))).details[0].field).toBe('bio');
    expect((await refusal(untyped.messaging.privateMessages.send(actor, 'someone', { content: 'hi' }))).details[0].field).toBe(
      'recipientId',
    );
    expect((await refusal(untyped.content.posts.create({ userId: '1' }, { content: 'hi' }))).details.map((d) => d.field)).toContain(
      'actor.userId',
    );
    expect((await refusal(untyped.accounts.twoFactor.enable(actor, null))).details[0].field).toBe('code');
    expect((await refusal(untyped.social.follows.follow(actor))).details[0].field).toBe('userId');
    expect((await refusal(untyped.content.engagement.share(actor, { id: 1 }))).details[0].field).toBe('postId');
    expect((await refusal(untyped.content.posts.wall(actor, user.id, 0))).details[0].field).toBe('page');
    expect((await refusal(untyped.messaging.groups.addMember(actor, 1, -3))).details[0].field).toBe('userId');
    // The same rule as HTTP, not a looser one: 10,001 characters are refused before the service.
    expect((await refusal(untyped.content.posts.create(actor, { content: 'x'.repeat(10_001) }))).details[0].field).toBe('content');

    const rows = await database.db.selectFrom('posts').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toEqual([]);
    // Good input still goes through, with the HTTP schema's coercions (a numeric string id).
    const dee = await plaza.accounts.auth.register({ username: 'dee_lib', email: 'dee@example.test', password: 'a long password' });
    expect(await untyped.social.follows.follow(actor, String(dee.id))).toEqual({ followed: true });
  });

  it('checks every method of every exposed service: an actor without a user id is refused by each, before its service', async () => {
    const untyped = plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => unknown>>>;
    const rules = LIBRARY_INPUT_RULES as unknown as Record<string, Record<string, Record<string, { name: string }[]>>>;
    // Every service Plaza exposes has its rules (the type makes the rules name each of its methods).
    const exposed = Object.entries(plaza).flatMap(([group, services]) =>
      group === 'config' || typeof services !== 'object' ? [] : Object.keys(services as object).map((name) => `${group}.${name}`),
    );
    const ruled = Object.entries(rules).flatMap(([group, services]) => Object.keys(services).map((name) => `${group}.${name}`));
    expect(ruled.sort()).toEqual(exposed.sort());

    const unchecked: string[] = [];
    let checked = 0;
    for (const [group, services] of Object.entries(rules)) {
      for (const [name, methods] of Object.entries(services)) {
        for (const [method, args] of Object.entries(methods)) {
          expect(typeof untyped[group][name][method], `${group}.${name}.${method} is a method`).toBe('function');
          if (args.length === 0) continue; // takes nothing: nothing to check
          // The first argument wrong-typed: an actor without userId, or an object where a scalar or a body's fields belong.
          const returned = untyped[group][name][method]({ not: 'valid' }, 'x', 'x', 'x');
          const settled =
            Symbol.asyncIterator in Object(returned) ? (returned as AsyncIterable<unknown>)[Symbol.asyncIterator]().next() : returned;
          const error = await Promise.resolve(settled).then(
            () => null,
            (e: unknown) => e,
          );
          const ok =
            error instanceof Invalid &&
            error.code === 'invalid_input' &&
            (args[0].name !== 'actor' || error.details?.some((d) => d.field === 'actor.userId'));
          if (ok) checked += 1;
          else unchecked.push(`${group}.${name}.${method}`);
        }
      }
    }
    expect(unchecked).toEqual([]);
    expect(checked).toBeGreaterThan(100);

    // The compiler holds the rules to the services: one left out does not compile (tsconfig.test.json checks this line).
    // @ts-expect-error `unfollow` and `list` have no rule
    const incomplete: InputRules<Plaza['social']['follows']> = { follow: [] };
    expect(incomplete).toBeDefined();
  });

  it('refuses wrong-typed input to reacting, editing, preferences, notifications, calls, lives and moderation, changing nothing', async () => {
    const register = (name: string) =>
      plaza.accounts.auth.register({ username: `${name}_chk`, email: `${name}@chk.example.test`, password: 'a long password' });
    const eve = actorOf(await register('eve'));
    const fay = actorOf(await register('fay'));
    const untyped = plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;
    /** The refusal's fields: each call must fail with invalid_input. */
    const refusedFields = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).code).toBe('invalid_input');
      return ((error as Invalid).details ?? []).map((d) => d.field);
    };

    const post = await plaza.content.posts.create(eve, { content: 'Original words', media: [], media_type: null, tags: [] });
    const postId = post.post.id;
    // A react with an unknown reaction, an edit with a number for content.
    expect(await refusedFields(untyped.content.engagement.react(fay, postId, 'adore'))).toEqual(['type']);
    expect(await refusedFields(untyped.content.posts.edit(eve, postId, { content: 42 }))).toEqual(['content']);
    expect(await plaza.content.engagement.reactions(fay, postId)).toEqual(await plaza.content.engagement.reactions(eve, postId));
    expect((await plaza.content.posts.view(eve, postId)).post.content).toBe('Original words');
    expect(Object.values(await plaza.content.engagement.reactions(eve, postId)).every((n) => n === 0)).toBe(true);

    // A comment's edit and react.
    const comment = await plaza.content.comments.create(fay, { post_id: postId, content: 'First!' });
    expect(await refusedFields(untyped.content.comments.edit(fay, comment.id, ['First?']))).toEqual(['content']);
    expect(await refusedFields(untyped.content.comments.react(eve, 'post', comment.id, 7))).toEqual(['reaction']);
    expect((await plaza.content.comments.list(eve, postId)).items.map((c) => c.comment.content)).toEqual(['First!']);

    // A preference with a value that is not a flag.
    const before = await plaza.accounts.preferences.view(eve);
    expect(await refusedFields(untyped.accounts.preferences.update(eve, { notifications_likes: 'sometimes' }))).toEqual([
      'notifications_likes',
    ]);
    expect(await plaza.accounts.preferences.view(eve)).toEqual(before);
    // Good input is taken as HTTP takes it: "1" is true, the clients' other spelling is the service's key.
    const updated = await (untyped.accounts.preferences.update(eve, { email_notifications: '1' }) as Promise<Record<string, boolean>>);
    expect(updated).toMatchObject({ notifications_email: true });

    // A notification read with an id that is not one.
    await plaza.social.follows.follow(fay, eve.userId);
    const unread = await plaza.notifications.inbox.countUnread(eve);
    expect(unread).toBeGreaterThan(0);
    expect(await refusedFields(untyped.notifications.inbox.markRead(eve, 'latest'))).toEqual(['id']);
    expect(await refusedFields(untyped.notifications.inbox.list(eve, { unreadOnly: 'maybe' }))).toEqual(['unreadOnly']);
    expect(await plaza.notifications.inbox.countUnread(eve)).toBe(unread);

    // A call to a recipient that is not an id, a live with a numeric title, a report about an object.
    expect(await refusedFields(untyped.calls.calls.initiate(eve, { recipient_id: 'fay', call_type: 'audio' }))).toEqual(['recipient_id']);
    expect((await plaza.calls.calls.history(eve, { page: 1, perPage: 20 })).items).toEqual([]);
    expect(await refusedFields(untyped.lives.lives.start(eve, { title: 42 }))).toEqual(['title']);
    expect((await plaza.lives.lives.list(eve, { page: 1, perPage: 20 })).items).toEqual([]);
    expect(await refusedFields(untyped.moderation.reports.create(fay, { post_id: { id: postId }, reason: 'spam' }))).toEqual(['post_id']);
    expect(await refusedFields(untyped.moderation.suggestions.create(fay, { title: 5, description: 'Dark mode' }))).toEqual(['title']);
    const reports = await database.db.selectFrom('reports').select('id').execute();
    expect(reports).toEqual([]);

    // A private message's edit.
    const message = await plaza.messaging.privateMessages.send(fay, eve.userId, { content: 'Hello Eve' });
    expect(await refusedFields(untyped.messaging.privateMessages.edit(fay, message.id, { text: 'Bye' }))).toEqual(['content']);
    const thread = await plaza.messaging.privateMessages.thread(fay, eve.userId, { page: 1, perPage: 20 });
    expect(thread.messages.map((m) => m.message.content)).toEqual(['Hello Eve']);
  });
});
