// The page prints arrays like NumPy: compare with repr() from NumPy itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatCell, formatFromLog, formatNumpy, formatScalar } from '../../web/src/site/numpy-format.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_repr.json', import.meta.url), 'utf8'));
const toNumber = (v) => (typeof v === 'number' ? v : { nan: NaN, inf: Infinity, '-inf': -Infinity }[v]);

test('the NumPy repr fixture has its 22 cases (one test each below)', () => {
  assert.equal(fixture.cases.length, 22);
});

for (const [i, c] of fixture.cases.entries()) {
  test(`formatNumpy matches NumPy ${fixture.numpy} repr, case ${i} (shape ${JSON.stringify(c.shape)})`, () => {
    assert.equal(formatNumpy(c.data.map(toNumber), c.shape), c.repr);
  });
}

test('formatFromLog recovers the underflowed weight 5.766e-340 from its log', () => {
  assert.equal(formatFromLog(-781.126928011043), '5.766e-340');
  assert.equal(formatFromLog(Math.log(0.5)), '5.000e-1');
  assert.equal(formatFromLog(-Infinity), '0');
});

test('formatCell keeps heatmap labels short', () => {
  assert.equal(formatCell(927), '927');
  assert.equal(formatCell(0.11920292202212353), '0.1192');
  assert.equal(formatCell(7.947151507960553e-232), '7.95e-232');
  assert.equal(formatCell(0), '0');
  assert.equal(formatCell(NaN), 'nan');
});

test('formatScalar matches the repr of NumPy float64 and int64 scalars (tests/fixtures/scalar_repr.json)', () => {
  const scalars = JSON.parse(readFileSync(new URL('../fixtures/scalar_repr.json', import.meta.url), 'utf8'));
  assert.equal(scalars.cases.length, 20, 'make_scalar_repr.py writes 20 cases');
  for (const c of scalars.cases) assert.equal(formatScalar(c.value, { integer: c.integer }), c.repr, `${c.value}`);
});
