// The Bahdanau chapter's model (web/src/site/chapters/bahdanau-model.js)
// against NumPy (tests/fixtures/additive.txt) and the article's printed numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { bahdanauAttention, SCHEMA, setupLines } from '../../web/src/site/chapters/bahdanau-model.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('additive.txt');

test('the article (seed 42, 5, 16, 10): draws bit for bit, scores and context to 1e-12', () => {
  const state = readState(SCHEMA, new URLSearchParams(''));
  assert.deepEqual(state, { seed: 42, inputLength: 5, hiddenSize: 16, attentionSize: 10 });
  const r = bahdanauAttention(a, state);
  assert.deepEqual(Array.from(r.encoderStates.data), Array.from(ref.get('case0.encoder_states').data));
  assert.deepEqual(Array.from(r.layer1.data), Array.from(ref.get('case0.W1').data));
  assertClose(r.scores, ref.get('case0.scores').data, 1e-12, { label: 'scores' });
  assertClose(r.context, ref.get('case0.context').data, 1e-12, { label: 'context' });
  assert.deepEqual(
    Array.from(r.scores, (x) => Number(x.toFixed(4))),
    [4.3579, 5.9237, 4.1867, 2.1144, 0.9577],
  );
  assert.match(setupLines(state), /^np\.random\.seed\(42\)\nencoder_states = np\.random\.randn\(5, 16\)/);
});

test('every fixture case matches NumPy to 1e-12', () => {
  for (let i = 0; ref.has(`case${i}.config`); i++) {
    const [seed, inputLength, hiddenSize, attentionSize] = ref.get(`case${i}.config`).data;
    const r = bahdanauAttention(a, { seed, inputLength, hiddenSize, attentionSize });
    assertClose(r.weights, ref.get(`case${i}.weights`).data, 1e-12, { label: `case${i} weights` });
    assertClose(r.context, ref.get(`case${i}.context`).data, 1e-12, { label: `case${i} context` });
  }
});

test("schema: sizes are clamped to the fields' bounds, junk falls back", () => {
  const s = readState(SCHEMA, new URLSearchParams('seed=abc&len=100000&hidden=0&att=1e9'));
  assert.deepEqual(s, { seed: 42, inputLength: 20, hiddenSize: 1, attentionSize: 10 });
});
