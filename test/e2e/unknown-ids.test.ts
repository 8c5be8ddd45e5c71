import { resolveAll, Scripts } from '@plaza/server';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLES, idFieldsOf, operationsOf, requestOf, seedFixtures, send, tokenOf, withField } from '../support/operation-examples.js';
import { rowCounts } from '../support/snapshot.js';
import { startTestServer } from '../support/server.js';

/**
 * A request naming a user, group, post, message… that does not exist answers 404 and changes nothing,
 * whatever the operation and whichever of its ids is the unknown one (a foreign-key failure must never
 * surface as a 500, as `DELETE messages.php?user_id=<unknown>` once did on SQLite). An id that is a
 * reference inside the input (`parent_id`, `member_ids`) may instead be a 400 naming that field.
 * Every id input of every operation is swept, from the registry, so a new script is covered the day it
 * is declared (given its line in its context's file of test/support/examples/).
 */
const UNKNOWN = 999_999;

const t = await startTestServer();
afterAll(() => t.close());
const operations = operationsOf(resolveAll(t.plaza.container, Scripts)).filter((x) => idFieldsOf(x.o).length > 0);

describe('an unknown id answers 404 and changes nothing', () => {
  it('covers every operation that takes an id', () => {
    expect(
      operations.filter((x) => !EXAMPLES[x.label]).map((x) => `${x.label}: no example in test/support/examples/ (its context's file)`),
    ).toEqual([]);
  });

  it('for every id field of every operation', async () => {
    const f = await seedFixtures(t.api);
    const failures: string[] = [];
    for (const { script, o, label } of operations) {
      const build = EXAMPLES[label];
      if (!build) continue;
      for (const field of idFieldsOf(o)) {
        const example = withField(build(f), field, field.list ? [UNKNOWN] : UNKNOWN);
        const { url, body } = requestOf(script, o, example);
        const before = await rowCounts(t.database.db);
        const res = await send(t.api, o, url, body, tokenOf(f, example));
        const namesField = res.status === 400 && (res.body?.details ?? []).some((d: { field: string }) => d.field === field.name);
        if (res.status !== 404 && !namesField) {
          failures.push(`${label} with ${field.name}=${UNKNOWN}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          continue;
        }
        const after = await rowCounts(t.database.db);
        if (JSON.stringify(after) !== JSON.stringify(before))
          failures.push(`${label} with ${field.name}=${UNKNOWN}: refused, yet rows changed`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
