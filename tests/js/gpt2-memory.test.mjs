// Memory of an opened GPT-2: loading a model from a Blob grows the wasm memory
// by at most 1.3x its float32 weights (the weights stream in chunk by chunk),
// and models dropped without delete() are reclaimed (FinalizationRegistry):
// 16 of 165 MiB each, 2.6 GiB in all, open in a 2 GiB memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, fixtureFiles, gpt2Safetensors } from './gpt2-files.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const a = await loadAttention();
// The GPT-2 wasm module (instantiated on the first openModel call) counts in
// memoryBytes(): load it with the tiny fixture model before measuring.
(await a.openModel(fixtureFiles())).delete();

// GPT-2 small's embedding tables with one narrow layer: 165 MiB of float32 weights.
const config = { n_layer: 1, n_head: 12, n_embd: 768, n_positions: 1024, vocab_size: 50257, n_inner: 64 };
const weights = gpt2Safetensors(config, (name, w) => {
  if (name.includes('ln_') && name.endsWith('weight')) w.fill(1);
  else if (name === 'wte.weight') for (let i = 0; i < w.length; i += 97) w[i] = (i % 13) / 13 - 0.5;
});
const weightBytes = weights.length - 8 - new DataView(weights.buffer).getUint32(0, true);
const files = () => ({
  'config.json': new TextEncoder().encode(JSON.stringify(config)),
  'model.safetensors': new Blob([weights]),
  'tokenizer.json': fixtureBytes('tokenizer.json'),
});

async function collect() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

test('opening from a Blob grows the wasm memory by at most 1.3x the float32 weights', async () => {
  const before = a.memoryBytes();
  const m = await a.openModel(files());
  const grown = a.memoryBytes() - before;
  assert.ok(
    grown <= 1.3 * weightBytes,
    `grew ${(grown / 2 ** 20).toFixed(1)} MiB for ${(weightBytes / 2 ** 20).toFixed(1)} MiB of weights`,
  );
  const r = m.runIds([1, 2, 3]);
  assert.equal(r.attentions.length, 1);
  assert.equal(r.attentions[0].length, 12);
  // 50257 ids, a 262-token tokenizer: ids past it have no text and are named by number.
  const padded = r.next.filter(({ id }) => id >= m.tokenizer.vocabSize);
  assert.ok(padded.length > 0);
  for (const { id, token } of padded) assert.equal(token, `<id ${id}>`);
  m.delete();
});

test('models dropped without delete() are reclaimed: 16 x 165 MiB open one after another in 2 GiB', async () => {
  for (let i = 0; i < 16; i++) {
    await a.openModel(files()); // dropped at once
    await collect();
  }
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});
