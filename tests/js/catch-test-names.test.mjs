// CTest lists Catch2 cases by name (catch_discover_tests), and a ';' in a name
// splits it into a list: the cut-off name matches no case, runs nothing and
// passes. No case name may hold one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'cpp');

test('no Catch2 test case name contains a semicolon', () => {
  const names = readdirSync(DIR)
    .filter((f) => f.endsWith('.cpp'))
    .flatMap((f) =>
      [...readFileSync(join(DIR, f), 'utf8').matchAll(/TEST_CASE\("([^"]*)"/g)].map(([, n]) => `${f}: ${n}`),
    );
  assert.ok(names.length > 100, `${names.length} cases found`);
  assert.deepEqual(
    names.filter((n) => n.split(': ').slice(1).join(': ').includes(';')),
    [],
  );
});
