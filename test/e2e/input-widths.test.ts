import { resolveAll, Scripts } from '@plaza/server';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EXAMPLES,
  operationsOf,
  requestOf,
  seedFixtures,
  send,
  tokenOf,
  textFieldsOf,
  unique,
  withField,
  type Example,
  type Fixtures,
  type TextField,
} from '../support/operation-examples.js';
import { startTestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/**
 * Every free-text input of every operation, at the longest length the server accepts, fits where it
 * is stored: PUT users.php once accepted a 255-character `militant_badge` into a `varchar(64)`, a 500
 * on MySQL (SQLite ignores widths, so this file matters on MariaDB, which CI runs it on).
 *
 * For each field, the longest accepted length is searched between the example's own value and the
 * schema's `maxLength` (acceptance is assumed to stop at one length: validation refuses what is
 * longer); any 5xx on the way fails. Text is made of `€`, three bytes in UTF-8, so that byte-counted
 * columns (TEXT holds 65,535 bytes) are filled as well as character-counted ones.
 */

const t = await startTestServer();
afterAll(() => t.close());
const operations = operationsOf(resolveAll(t.plaza.container, Scripts)).filter((x) => textFieldsOf(x.o).length > 0);

/**
 * Operations whose text is never stored as sent (credentials, tokens, and searches, which only read):
 * there, the longest value must only not be a 5xx.
 */
const NOT_STORED = new Set([
  // A handle or actor URL names a remote account; what is stored is what its server answers, never the input.
  'GET fediverse.php action=search_remote',
  'GET fediverse.php action=remote_profile',
  'POST fediverse.php action=follow_remote',
  'DELETE fediverse.php action=unfollow_remote',
  // A remote post's URL: what is stored is the id its server answers with. A reply's text is stored
  // only once a remote Note answered, which this sweep's server cannot reach: its column is `text`
  // (5,000 characters of 3 bytes fit), checked by the remote engagement test.
  'POST fediverse.php action=react_remote',
  'DELETE fediverse.php action=unreact_remote',
  'POST fediverse.php action=reply_remote',
  'PUT fediverse.php action=edit_remote_reply',
  'DELETE fediverse.php action=delete_remote_reply',
  'POST auth.php',
  'POST auth.php action=login',
  'POST auth.php action=refresh',
  'POST auth.php action=revoke',
  'POST auth.php action=forgot_password',
  'POST auth.php action=reset_password',
  'POST auth.php action=resend_confirmation',
  'GET auth.php action=confirm_email',
  'GET messages.php has=user_id',
  'GET messages.php',
  'GET message_groups.php path=',
  // Passwords are hashed or only compared, links and tokens only hashed: never stored as sent.
  'POST change_password.php',
  'POST delete_account.php',
  'DELETE two_factor.php',
  'POST two_factor.php action=regenerate_recovery_codes',
  'GET delete_account.php has=token',
  'GET export.php',
  // Searched and translated, never stored.
  'GET search.php',
  'POST translate.php',
  // The username names the account added to a page's team: looked up, never stored.
  'POST pages.php action=add_team_member',
]);

type Filler = (n: number) => string | null;

const text: Filler = (n) => '€'.repeat(n);
/** An uploaded file's name of `n` characters, or null below the shortest (`media_x.jpg`). */
const upload =
  (prefix: string): Filler =>
  (n) =>
    n < prefix.length + 5 ? null : `${prefix}${'x'.repeat(n - prefix.length - 4)}.jpg`;

/** Values with a shape of their own: names, addresses, media references. */
function fillerFor(label: string, field: TextField): Filler {
  switch (field.name) {
    case 'username':
      return (n) => {
        const u = unique();
        return n < u.length ? null : u + 'x'.repeat(n - u.length);
      };
    case 'email':
      return (n) => {
        const u = `${unique()}@example.test`;
        return n < u.length ? null : 'x'.repeat(n - u.length) + u;
      };
    case 'password':
      return (n) => 'p'.repeat(n);
    case 'background_image':
      return upload('media_');
    case 'avatar':
    case 'banner':
      return upload(label.includes('groups.php') ? 'group_' : 'avatar_');
    case 'cover_image':
      return upload('group_');
    case 'media':
      if (label.includes('albums.php')) return upload('album_');
      return upload(label.includes('posts') || label.includes('pages.php') ? 'media_' : label.includes('stories') ? 'story_' : 'messages_');
    case 'photo':
    case 'path':
      return upload('album_');
    case 'image':
      return upload('event_');
    case 'website':
      return (n) => (n < 10 ? null : `https://${'x'.repeat(n - 8)}`);
    case 'event_date':
      // A date and time has two accepted widths: with seconds, and the client's `T` form without.
      return (n) => (n === 19 ? '2099-01-01 10:00:00' : n === 16 ? '2099-01-01T10:00' : null);
    default:
      return text;
  }
}

function withValue(example: Example, field: TextField, value: string): Example {
  return withField(example, field, field.shape === 'item' ? [value] : value);
}

describe('the longest accepted value of every text field fits its column', () => {
  it('covers every operation that takes text', () => {
    const missing = operations.filter((x) => !EXAMPLES[x.label] && !NOT_STORED.has(x.label));
    expect(missing.map((x) => `${x.label}: no example in test/support/examples/ (its context's file)`)).toEqual([]);
  });

  it('for every text field of every operation', async () => {
    const f: Fixtures = await seedFixtures(t.api);
    const failures: string[] = [];
    const found: string[] = [];
    for (const { script, o, label } of operations) {
      for (const field of textFieldsOf(o)) {
        const name = `${label} ${field.name}${field.shape === 'item' ? '[]' : ''}`;
        const max = field.maxLength;
        if (max === undefined) {
          failures.push(`${name}: no maximum length declared`);
          continue;
        }
        const fill = fillerFor(label, field);
        const build = EXAMPLES[label];
        /** Sends the field at length n; true when accepted, null when not representable at that length. */
        const accepted = async (n: number): Promise<boolean | null> => {
          const value = fill(n);
          if (value === null) return null;
          const example = build ? withValue(build(f), field, value) : withValue({}, field, value);
          // A media reference must name a file the caller uploaded: put one there, as upload would have.
          await placeUploaded(t, value, example.as ? f[example.as] : f.me);
          const { url, body } = requestOf(script, o, example);
          const res = await send(t.api, o, url, body, tokenOf(f, example));
          if (res.status >= 500) failures.push(`${name} at ${n} characters: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
          return res.status < 300 && res.body?.success === true;
        };
        if (NOT_STORED.has(label) || !build) {
          await accepted(max);
          continue;
        }
        if (await accepted(max)) {
          found.push(`${name}: ${max}`);
          continue;
        }
        // The shortest representable length must be accepted, or the example is wrong.
        let lo = 1;
        while ((await accepted(lo)) === null && lo < max) lo++;
        if (!(await accepted(lo))) {
          failures.push(`${name}: refused even at ${lo} characters; fix its example`);
          continue;
        }
        let hi = max;
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (await accepted(mid)) lo = mid;
          else hi = mid;
        }
        found.push(`${name}: ${lo} of ${max}`);
      }
    }
    expect(failures).toEqual([]);
    expect(found.length).toBeGreaterThan(20);
  }, 300_000);
});
