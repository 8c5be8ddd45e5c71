#!/usr/bin/env node
// Records the OpenAPI examples from the test suite (docs/decisions/0171): runs vitest with
// PLAZA_RECORD_OPENAPI set (test/support/openapi-recorder.ts notes each operation's first success and
// every failure code), then merges what it noted into packages/adapters-http/src/http/openapi-examples.json.
//
//   npm run openapi:examples                      every e2e suite, starting from an empty file
//   npm run openapi:examples -- test/e2e/pages.test.ts ...   these suites; operations they do not reach keep their entry
//
// Per operation the example kept is the first success of the first suite in path order (the sweeps that
// vary fields to their limits last), so that a new recording changes an example only when its suite
// changed; failures are the union of the codes seen.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'packages/adapters-http/src/http/openapi-examples.json');
const files = process.argv.slice(2);
const partial = files.length > 0;
const directory = mkdtempSync(join(tmpdir(), 'plaza-openapi-examples-'));

try {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', ...(partial ? files : ['test/e2e'])], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAZA_RECORD_OPENAPI: directory },
  });
  if (run.status !== 0) console.error('openapi:examples: some tests failed; what the passing calls recorded is merged all the same.');

  // The sweeps vary every field to its widest or oddest value: their calls are examples of last resort.
  const SWEEPS = /(fuzz|input-widths|unknown-ids|query-count)\.test\.ts$/;
  const rank = (e) => `${SWEEPS.test(e.source) ? 1 : 0} ${e.source} ${String(e.sequence).padStart(9, '0')}`;
  const examples = new Map();
  const failures = new Map();
  for (const name of readdirSync(directory)) {
    for (const line of readFileSync(join(directory, name), 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line);
      if (entry.kind === 'example') {
        const had = examples.get(entry.operationId);
        const before = had && rank(had) < rank(entry);
        if (!before) examples.set(entry.operationId, entry);
      } else if (entry.kind === 'failure') {
        const byStatus = failures.get(entry.operationId) ?? {};
        (byStatus[entry.status] ??= new Set()).add(entry.code);
        failures.set(entry.operationId, byStatus);
      }
    }
  }

  const previous = partial && existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')).operations : {};
  const operations = { ...previous };
  for (const id of new Set([...examples.keys(), ...failures.keys()])) {
    const old = previous[id] ?? {};
    const example = examples.get(id);
    const seen = failures.get(id) ?? {};
    const merged = {};
    for (const [status, codes] of Object.entries({ ...old.failures })) merged[status] = new Set(codes);
    for (const [status, codes] of Object.entries(seen)) for (const c of codes) (merged[status] ??= new Set()).add(c);
    operations[id] = {
      ...(example
        ? { source: example.source, request: example.request, response: example.response }
        : old.response
          ? { source: old.source, request: old.request, response: old.response }
          : {}),
      failures: Object.fromEntries(
        Object.keys(merged)
          .sort()
          .map((s) => [s, [...merged[s]].sort()]),
      ),
    };
  }
  const sorted = Object.fromEntries(
    Object.keys(operations)
      .sort()
      .map((k) => [k, operations[k]]),
  );
  writeFileSync(
    target,
    `${JSON.stringify(
      {
        description:
          'Recorded by npm run openapi:examples from the test suite (test/support/openapi-recorder.ts, docs/decisions/0171): per operation the first successful call, normalised, and the failure codes seen. Do not edit by hand.',
        operations: sorted,
      },
      null,
      2,
    )}\n`,
  );
  const withExample = Object.values(sorted).filter((o) => o.response).length;
  console.log(`openapi:examples: ${withExample} operations with an example, ${Object.keys(sorted).length} noted, in ${target}`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
