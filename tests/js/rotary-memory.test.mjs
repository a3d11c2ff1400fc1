// Memory of a 16-bit checkpoint: a Qwen2-shaped model in BF16 (24 MiB of
// weights, 48 MiB in float32) opened from a Blob grows the wasm memory by at
// most 1.3x its BF16 bytes, well under its float32 size: its linear weights and
// embedding table stay 16-bit, widened inside the gemm's packing. The same
// numbers stored in F32 give the same attention maps and logits (within 1e-6,
// |got - want| / max(1, |want|); the same floats meet the same kernel). Its own
// file: the wasm memory never shrinks, so it is measured in a fresh process.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose } from './fixtures.js';
import { joinSafetensors } from './gpt2-files.js';
import { qwen2Tensors } from './qwen2-files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'qwen2');
const config = {
  model_type: 'qwen2',
  num_hidden_layers: 4,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  hidden_size: 256,
  intermediate_size: 1024,
  vocab_size: 32768,
  max_position_embeddings: 64,
  tie_word_embeddings: true,
};

/** The checkpoint in BF16 and the same values in F32: deterministic small bfloat16 numbers. */
function checkpoints() {
  const header16 = {};
  const header32 = {};
  const values = [];
  let at16 = 0;
  let at32 = 0;
  let seed = 1;
  for (const [name, shape] of qwen2Tensors(config)) {
    const n = shape.reduce((x, y) => x * y, 1);
    const bits = new Uint16Array(n);
    const norm = name.endsWith('norm.weight');
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      // |x| in [2^-7, 2^-4): exponent 120..122, sign and fraction from the generator
      bits[i] = norm ? 0x3f80 : ((seed >>> 31) << 15) | ((120 + ((seed >>> 8) % 3)) << 7) | ((seed >>> 12) & 0x7f);
    }
    values.push(bits);
    header16[name] = { dtype: 'BF16', shape, data_offsets: [at16, at16 + 2 * n] };
    header32[name] = { dtype: 'F32', shape, data_offsets: [at32, at32 + 4 * n] };
    at16 += 2 * n;
    at32 += 4 * n;
  }
  const data16 = new Uint8Array(at16);
  const data32 = new Uint8Array(at32);
  let o16 = 0;
  let o32 = 0;
  for (const bits of values) {
    data16.set(new Uint8Array(bits.buffer), o16);
    const wide = new Uint32Array(bits.length);
    for (let i = 0; i < bits.length; i++) wide[i] = bits[i] << 16;
    data32.set(new Uint8Array(wide.buffer), o32);
    o16 += bits.byteLength;
    o32 += wide.byteLength;
  }
  return { bf16: joinSafetensors(header16, data16), f32: joinSafetensors(header32, data32), bf16Bytes: at16 };
}

const a = await loadAttention();
const tokenizer = new Uint8Array(readFileSync(join(ROOT, 'tokenizer.json')));
const files = (model) => ({
  'config.json': new TextEncoder().encode(JSON.stringify(config)),
  'model.safetensors': new Blob([model]),
  'tokenizer.json': tokenizer,
});
// The model module loads on the first openModel call: load it with the tiny fixture first.
(
  await a.openModel({
    'config.json': new Uint8Array(readFileSync(join(ROOT, 'config.json'))),
    'model.safetensors': new Uint8Array(readFileSync(join(ROOT, 'model.safetensors'))),
    'tokenizer.json': tokenizer,
  })
).delete();

test('a BF16 model takes about its file size in wasm memory and runs as its F32 copy', async () => {
  const { bf16, f32, bf16Bytes } = checkpoints();
  const ids = [5, 300, 7000, 12, 31000, 99, 4, 2048];
  const before = a.memoryBytes();
  const half = await a.openModel(files(bf16));
  const grown = a.memoryBytes() - before;
  assert.ok(
    grown <= 1.3 * bf16Bytes,
    `grew ${(grown / 2 ** 20).toFixed(1)} MiB for ${(bf16Bytes / 2 ** 20).toFixed(1)} MiB of BF16 weights`,
  );
  const r16 = half.runIds(ids, { logits: true });
  half.delete();
  const wide = await a.openModel(files(f32));
  const r32 = wide.runIds(ids, { logits: true });
  wide.delete();
  assertClose(r16.logits, r32.logits, 1e-6, { label: 'BF16 vs F32 logits' });
  for (let l = 0; l < config.num_hidden_layers; l++)
    for (let h = 0; h < config.num_attention_heads; h++)
      assertClose(r16.attentions[l][h].data, r32.attentions[l][h].data, 1e-6, { label: `layer ${l} head ${h}` });
});
