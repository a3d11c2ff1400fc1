// Colour-bar ticks (web/src/site/figures/heatmap.js): at most six round values,
// an exact zero, and labels with a true minus sign.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colorbarTicks, tickLabel } from '../../web/src/site/figures/heatmap.js';

test('ticks: round steps within the range, at most the number asked for', () => {
  assert.deepEqual(colorbarTicks(0, 1, 5), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(colorbarTicks(-1, 1, 6), [-1, -0.5, 0, 0.5, 1]);
  assert.deepEqual(colorbarTicks(148, 929, 6), [200, 400, 600, 800]);
  for (const [lo, hi] of [
    [-0.3, 0.7],
    [-1.08e-15, 1],
    [-3.2, 45.3],
    [1e-9, 3e-9],
    [-20, 20],
  ]) {
    const ticks = colorbarTicks(lo, hi, 6);
    assert.ok(ticks.length >= 2 && ticks.length <= 6, `${lo}..${hi}: ${ticks}`);
    assert.ok(
      ticks.every((t) => t >= lo - 1e-12 && t <= hi + 1e-12),
      `${lo}..${hi}: ${ticks}`,
    );
    // Zero, when in range, is exactly zero (it was 1.08e-15 from accumulated steps).
    if (lo < 0 && hi > 0 && ticks.some((t) => Math.abs(t) < (hi - lo) / 100)) assert.ok(ticks.includes(0), `${ticks}`);
  }
  assert.deepEqual(colorbarTicks(-0.3, 0.7, 6), [-0.2, 0, 0.2, 0.4, 0.6]);
  assert.deepEqual(colorbarTicks(2, 2), [2]);
});

test('labels: U+2212 for negatives, so a tick mark beside "-1" cannot read "--1"', () => {
  assert.equal(tickLabel(-1), '\u22121');
  assert.equal(tickLabel(-0.25), '\u22120.25');
  assert.equal(tickLabel(0), '0');
  assert.equal(tickLabel(20), '20');
});
