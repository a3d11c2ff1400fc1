// The GloVe chapter's random projections are NumPy-reproducible: exactly
// np.random.RandomState(seed).uniform(-b, b, ...) per layer (tests/fixtures/make_linear_init.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('linear_init.txt');

for (const seed of [0, 7, 42]) {
  test(`createTrainableAttention({ seed: ${seed} }) draws W_q, W_k, W_v exactly like NumPy`, () => {
    const t = a.createTrainableAttention({ inFeatures: 5, outFeatures: 3, seed });
    for (const name of ['Wq', 'Wk', 'Wv']) {
      assert.deepEqual(
        Array.from(t.params[name].weight.data),
        Array.from(ref.get(`trainable.seed${seed}.${name}.weight`).data),
        name,
      );
      assert.deepEqual(
        Array.from(t.params[name].bias),
        Array.from(ref.get(`trainable.seed${seed}.${name}.bias`).data),
        name,
      );
    }
  });

  test(`createAdditiveAttention({ seed: ${seed} }) draws W_q, W_k, w_s exactly like NumPy, and reseed() matches too`, () => {
    const ad = a.createAdditiveAttention({ inFeatures: 6, hiddenFeatures: 4, seed: seed === 0 ? 1 : 0 }).reseed(seed);
    for (const name of ['Wq', 'Wk', 'Ws']) {
      assert.deepEqual(
        Array.from(ad.params[name].weight.data),
        Array.from(ref.get(`additive.seed${seed}.${name}.weight`).data),
        name,
      );
      assert.deepEqual(
        Array.from(ad.params[name].bias),
        Array.from(ref.get(`additive.seed${seed}.${name}.bias`).data),
        name,
      );
    }
  });
}
