// Finite weights that overflow float32 in a model's forward pass (issue 34, item 6) are a
// RangeError naming the call, the layer and the tensor, not the core API's advice to
// scale Q or K down (which a model's caller cannot do). A tiny GPT-2 on the fixture's
// tokenizer, written here with layer 2's q and k biases 1e20: q and k are finite, their
// products (1e40) are not. The same model with biases 1e3 runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, gpt2Safetensors } from './gpt2-files.js';
import { generator } from './seeded.js';

const a = await loadAttention();
const CONFIG = {
  model_type: 'gpt2',
  n_layer: 3,
  n_head: 2,
  n_embd: 8,
  n_positions: 12,
  vocab_size: 262,
  layer_norm_epsilon: 1e-5,
  activation_function: 'gelu_new',
};

/** The folder, with fill(name, values) after small seeded weights and layer norms of 1. */
function folder(fill) {
  const { next: random } = generator(34);
  const model = gpt2Safetensors(CONFIG, (name, values) => {
    if (/ln_(1|2|f)\.weight$/.test(name)) values.fill(1);
    else if (/\.weight$/.test(name)) for (let i = 0; i < values.length; i++) values[i] = 0.1 * (random() - 0.5);
    fill(name, values);
  });
  return {
    'config.json': new TextEncoder().encode(JSON.stringify(CONFIG)),
    'model.safetensors': model,
    'tokenizer.json': fixtureBytes('tokenizer.json'),
  };
}

// Layer 2's q | k columns of c_attn's bias (the first 2 n_embd of 3 n_embd).
const qkBias = (value) => (name, values) => {
  if (name === 'h.2.attn.c_attn.bias') values.fill(value, 0, 2 * CONFIG.n_embd);
};

test('scores that overflow float32 name the call, the layer, the head and the tensor', async () => {
  const m = await a.openModel(folder(qkBias(1e20)));
  const want = (fn) => ({
    name: 'RangeError',
    message: new RegExp(
      `^Gpt2Model\\.${fn}: layer 2's attention scores \\(head 0, q k\\^T / sqrt\\(d_k\\) of h\\.2\\.attn\\.c_attn\\) overflowed float32`,
    ),
  });
  assert.throws(() => m.run(' the cat'), want('run'));
  assert.throws(() => m.runIds([1, 2, 3]), want('runIds'));
  for (const fn of ['run', 'runIds']) {
    try {
      fn === 'run' ? m.run(' the cat') : m.runIds([1, 2, 3]);
    } catch (error) {
      assert.doesNotMatch(error.message, /scale Q or K/);
    }
  }
  await assert.rejects(m.explainHead(' the cat', { layer: 2, head: 0 }), want('explainHead'));
  // Still usable: the model is not left broken by the error.
  assert.throws(() => m.run(' the'), want('run'));
  m.delete();
});

test('an MLP that overflows float32 names its layer and tensor', async () => {
  const m = await a.openModel(
    folder((name, values) => {
      if (name === 'h.1.mlp.c_fc.bias') values.fill(3e38);
      if (name === 'h.1.mlp.c_proj.weight') values.fill(10);
    }),
  );
  assert.throws(() => m.run(' the cat'), {
    name: 'RangeError',
    message: /^Gpt2Model\.run: layer 1's MLP output \(h\.1\.mlp\.c_proj\) overflowed float32/,
  });
  m.delete();
});

test('the same model with large but safe biases runs', async () => {
  const m = await a.openModel(folder(qkBias(1e3)));
  const r = m.run(' the cat');
  assert.equal(r.attentions.length, 3);
  assert.ok(r.next.every((t) => Number.isFinite(t.p)));
  m.delete();
});
