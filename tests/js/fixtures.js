// Reads tests/fixtures/*.txt (format: tests/fixtures/fixture_io.py) and
// compares arrays with a stated tolerance, reporting the max difference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const SPECIAL = { inf: Infinity, '-inf': -Infinity, nan: NaN };

/** @returns {Map<string, {rows: number, cols: number, data: Float64Array}>} */
export function loadFixture(name) {
  const entries = new Map();
  for (const line of readFileSync(join(DIR, name), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [key, rows, cols, ...values] = line.split(' ');
    const data = Float64Array.from(values, (v) => (v in SPECIAL ? SPECIAL[v] : Number(v)));
    entries.set(key, { rows: Number(rows), cols: Number(cols), data });
  }
  return entries;
}

/**
 * Largest |got - want| / max(floor, |want|); floor = 1 mixes absolute and relative
 * error, floor = STRICT_RELATIVE (the smallest normal double) is a strict relative error.
 */
export function maxDifference(got, want, floor = 1) {
  assert.equal(got.length, want.length, 'lengths differ');
  let worst = 0;
  for (let i = 0; i < got.length; i++) {
    if (Object.is(got[i], want[i]) || got[i] === want[i]) continue;
    if (!Number.isFinite(got[i]) || !Number.isFinite(want[i])) return Infinity;
    worst = Math.max(worst, Math.abs(got[i] - want[i]) / Math.max(floor, Math.abs(want[i])));
  }
  return worst;
}

export const STRICT_RELATIVE = 2.2250738585072014e-308;

/** Asserts max difference <= tolerance, naming it in the failure message. */
export function assertClose(got, want, tolerance, { floor = 1, label = 'value' } = {}) {
  const diff = maxDifference(got, want, floor);
  assert.ok(diff <= tolerance, `${label}: max difference ${diff} exceeds tolerance ${tolerance}`);
  return diff;
}

/**
 * One test per bad-input case: `call` must throw `ErrorClass` with a message
 * starting `message`, and `stillWorks()` (which asserts a correct answer) must
 * pass afterwards: the module survives the error.
 * @param {[string, () => unknown, Function, string][]} cases
 * @param {() => void} stillWorks
 */
export function testBadInputs(test, cases, stillWorks) {
  for (const [name, call, ErrorClass, message] of cases) {
    test(`bad input (${name}) throws ${ErrorClass.name} naming the argument, and the module keeps working`, () => {
      assert.throws(call, (error) => {
        assert.ok(
          error instanceof ErrorClass,
          `expected ${ErrorClass.name}, got ${error.constructor.name}: ${error.message}`,
        );
        assert.ok(error.message.startsWith(message), `message "${error.message}" should start with "${message}"`);
        return true;
      });
      stillWorks();
    });
  }
}
