// The readout helpers of web/src/site/explain/format.js: a softmax written out
// with its actual numbers, subtracting the row's largest score (as the
// stable softmax does), with true minus signs and never a double minus.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { softmaxText } from '../../web/src/site/explain/format.js';

const softmax = (xs) => {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
};

test('softmaxText: a positive largest score is subtracted', () => {
  const scores = [927, 929, 397];
  assert.equal(
    softmaxText('α1', scores, softmax(scores), 0),
    'α1 = e^(927 − 929) / (e^(927 − 929) + 1 + e^(397 − 929)) = 0.1192',
  );
});

test('softmaxText: a negative largest score is added back (no "− −")', () => {
  const scores = [-0.431, -0.2332];
  const text = softmaxText('w', scores, softmax(scores), 0);
  assert.equal(text, 'w = e^(−0.431 + 0.2332) / (e^(−0.431 + 0.2332) + 1) = 0.4507');
  assert.doesNotMatch(text, /− −|- -/);
});
