// The rotary decoder families through openModel (Llama, Qwen2, Qwen3, Gemma 3;
// tests/fixtures/<family>/, written with expected.txt by <family>/make.py):
// the last position's logits within 2e-5 and one head's explainHead inputs
// within 1e-5 (|got - want| / max(1, |want|), float32 against the float64 NumPy
// forward pass; families.test.mjs checks every attention map), the BF16 file,
// a sharded checkpoint, a whole downloaded folder, and hostile folders: each
// refused by name with nothing allocated, the module working afterwards.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture, maxDifference } from './fixtures.js';
import { joinSafetensors, splitSafetensors } from './gpt2-files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const FAMILIES = ['llama', 'qwen2', 'qwen3', 'gemma3'];
const bytes = (folder, name) => new Uint8Array(readFileSync(join(ROOT, folder, name)));
const json = (value) => new TextEncoder().encode(JSON.stringify(value));
const configOf = (family) => JSON.parse(new TextDecoder().decode(bytes(family, 'config.json')));

/** The fixture folder's Hugging Face files (not make.py, expected.txt or model-* variants), with overrides. */
function folder(family, overrides = {}) {
  const names = readdirSync(join(ROOT, family)).filter(
    (n) => !['make.py', 'expected.txt', '__pycache__'].includes(n) && !n.startsWith('model-'),
  );
  return { ...Object.fromEntries(names.map((n) => [n, bytes(family, n)])), ...overrides };
}

const a = await loadAttention();
const refs = Object.fromEntries(FAMILIES.map((f) => [f, loadFixture(`${f}/expected.txt`)]));
const ids = (family, s) => Array.from(refs[family].get(`seq${s}.ids`).data);

async function checkLogits(family, files) {
  const m = await a.openModel(files);
  try {
    assert.equal(m.family, family);
    let worst = 0;
    for (const s of [0, 1, 2]) {
      const got = m.runIds(ids(family, s), { logits: true }).logits;
      const want = refs[family].get(`seq${s}.logits`).data;
      assertClose(got, want, 2e-5, { label: `${family} seq${s} logits` });
      worst = Math.max(worst, maxDifference(got, want));
    }
    return worst;
  } finally {
    m.delete();
  }
}

for (const family of FAMILIES) {
  test(`${family}: logits and explainHead's q, k, v (before and after RoPE) match NumPy`, async () => {
    const worst = await checkLogits(family, folder(family));
    console.log(`${family}: logits max difference ${worst.toExponential(2)}`);
    const m = await a.openModel(folder(family));
    try {
      const text = m.tokenizer.decode(ids(family, 1));
      assert.deepEqual(m.tokenizer.encode(text).ids, ids(family, 1), 'the fixture text round-trips');
      const h = await m.explainHead(text, { layer: 1, head: 1 });
      const c = m.config;
      assert.equal(h.kvHead, Math.floor(c.num_key_value_heads / c.num_attention_heads));
      for (const part of ['q', 'k', 'v', 'qRotated', 'kRotated']) {
        const want = refs[family].get(`seq1.L1H1.${part}`);
        assert.equal(h[part].rows, want.rows);
        assert.equal(h[part].cols, c.head_dim);
        assertClose(h[part].data, want.data, 1e-5, { label: `${family} L1H1 ${part}` });
      }
      // On every layer the weights the model ran with are softmax(qRotated kRotatedᵀ · scale),
      // causal (and windowed on sliding layers).
      const r = m.runIds(ids(family, 1));
      const T = h.ids.length;
      for (let l = 0; l < c.num_hidden_layers; l++) {
        const e = await m.explainHead(text, { layer: l, head: 1 });
        const map = r.attentions[l][1];
        for (let i = 0; i < T; i++) {
          const scores = Array.from({ length: T }, (_, j) => {
            if (j > i || (e.window !== null && j <= i - e.window)) return -Infinity;
            let dot = 0;
            for (let d = 0; d < c.head_dim; d++) dot += e.qRotated.get(i, d) * e.kRotated.get(j, d);
            return dot * e.scale;
          });
          const max = Math.max(...scores);
          const x = scores.map((s) => Math.exp(s - max));
          const sum = x.reduce((p, q) => p + q, 0);
          assertClose(
            map.data.subarray(i * T, (i + 1) * T),
            Float64Array.from(x, (v) => v / sum),
            1e-5,
            {
              label: `${family} layer ${l} row ${i}`,
            },
          );
        }
      }
      await assert.rejects(m.explainHead(text, { layer: 0, head: c.num_attention_heads }), RangeError);
    } finally {
      m.delete();
    }
  });
}

test('gemma3: the sliding window bites, and the BF16 file holds the same model', async () => {
  const m = await a.openModel(folder('gemma3'));
  try {
    assert.deepEqual(m.config.layer_types, ['sliding_attention', 'full_attention', 'sliding_attention']);
    const r = m.runIds(ids('gemma3', 2));
    // Layer 0 slides (W = 4): query 11 sees keys 8..11 only; layer 1 is full.
    assert.ok(r.attentions[0][0].data.subarray(11 * 12, 11 * 12 + 8).every((x) => x === 0));
    assert.ok(r.attentions[1][0].data.subarray(11 * 12, 11 * 12 + 8).some((x) => x > 0));
  } finally {
    m.delete();
  }
  await checkLogits('gemma3', folder('gemma3', { 'model.safetensors': bytes('gemma3', 'model-bf16.safetensors') }));
});

test("gemma3: an image-text folder (model_type 'gemma3', text_config, language-model names) opens as the text model", async () => {
  const { header, data } = splitSafetensors(bytes('gemma3', 'model.safetensors'));
  const renamed = Object.fromEntries(
    Object.entries(header).map(([name, entry]) => [name.replace(/^model\./, 'model.language_model.'), entry]),
  );
  renamed['model.vision_tower.patch.weight'] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
  const text = configOf('gemma3');
  const files = folder('gemma3', {
    'config.json': json({ model_type: 'gemma3', text_config: { ...text, model_type: 'gemma3_text' } }),
    'model.safetensors': joinSafetensors(renamed, data),
  });
  await checkLogits('gemma3', files);
  // Without layer_types, every sliding_window_pattern-th layer is full (here: 2 -> sliding, full, sliding).
  const m = await a.openModel(withConfig('gemma3', { layer_types: undefined, sliding_window_pattern: 2 }));
  assert.deepEqual(m.config.layer_types, ['sliding_attention', 'full_attention', 'sliding_attention']);
  m.delete();
});

test('a sharded checkpoint (model.safetensors.index.json and its shards) opens as the single file does', async () => {
  const files = Object.fromEntries(readdirSync(join(ROOT, 'qwen2-sharded')).map((n) => [n, bytes('qwen2-sharded', n)]));
  const progress = [];
  const m = await a.openModel(files, { onProgress: (p) => progress.push(p) });
  m.delete();
  const total = files['model-00001-of-00002.safetensors'].length + files['model-00002-of-00002.safetensors'].length;
  assert.deepEqual(progress.at(-1), { loaded: total, total });
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i].loaded >= progress[i - 1].loaded);
  await checkLogits('qwen2', files);
});

test('a whole downloaded folder is accepted; generation_config.json is kept', async () => {
  const m = await a.openModel(
    folder('llama', { LICENSE: new Uint8Array(3), '.gitattributes': new Uint8Array(1), 'USE_POLICY.md': 'x' }),
  );
  try {
    assert.deepEqual(m.generationConfig, { bos_token_id: 258, eos_token_id: [261, 260] });
  } finally {
    m.delete();
  }
  const q = await a.openModel(folder('qwen2'));
  assert.equal(q.generationConfig, null);
  q.delete();
});

// ---- hostile folders --------------------------------------------------------------

const withConfig = (family, changes) => folder(family, { 'config.json': json({ ...configOf(family), ...changes }) });

/** A family's model.safetensors with its header changed by edit(header). */
function edited(family, edit) {
  const { header, data } = splitSafetensors(bytes(family, 'model.safetensors'));
  edit(header);
  return folder(family, { 'model.safetensors': joinSafetensors(header, data) });
}

function shards(edit) {
  const files = Object.fromEntries(readdirSync(join(ROOT, 'qwen2-sharded')).map((n) => [n, bytes('qwen2-sharded', n)]));
  edit(files);
  return files;
}

const CASES = [
  [
    'kv heads not dividing the heads',
    () => withConfig('llama', { num_key_value_heads: 3 }),
    RangeError,
    /num_key_value_heads = 3 does not divide num_attention_heads = 4/,
  ],
  [
    'an unknown rope type',
    () => withConfig('llama', { rope_scaling: { rope_type: 'yarn', factor: 4 } }),
    RangeError,
    /rope_scaling\.rope_type is "yarn"; known: default, linear, llama3/,
  ],
  [
    'an unknown rope type under the older key',
    () => withConfig('qwen2', { rope_scaling: { type: 'dynamic', factor: 2 } }),
    RangeError,
    /rope_scaling\.rope_type is "dynamic"/,
  ],
  [
    'a rope factor below 1',
    () => withConfig('qwen3', { rope_scaling: { rope_type: 'linear', factor: 0.5 } }),
    RangeError,
    /rope_scaling\.factor must be a finite number >= 1, got 0\.5/,
  ],
  [
    'a missing tensor',
    () => edited('qwen3', (h) => delete h['model.layers.1.self_attn.k_norm.weight']),
    RangeError,
    /model\.safetensors has no tensor layers\.1\.self_attn\.k_norm\.weight \(\[12\]\)/,
  ],
  [
    'an untied model without lm_head.weight',
    () => edited('qwen2', (h) => delete h['lm_head.weight']),
    RangeError,
    /model\.safetensors has no tensor lm_head\.weight \(\[262, 32\]\) for this config\.json/,
  ],
  [
    'head_dim times heads disagreeing with the weights',
    () => withConfig('gemma3', { head_dim: 8 }),
    RangeError,
    /model\.layers\.0\.self_attn\.q_proj\.weight has shape \[64, 32\] but the config needs \[32, 32\]/,
  ],
  ['an odd head_dim', () => withConfig('qwen3', { head_dim: 11 }), RangeError, /head_dim must be even/],
  [
    'attention soft-capping',
    () => withConfig('gemma3', { attn_logit_softcapping: 50 }),
    RangeError,
    /attn_logit_softcapping is 50/,
  ],
  [
    'bidirectional Gemma attention',
    () => withConfig('gemma3', { use_bidirectional_attention: true }),
    RangeError,
    /use_bidirectional_attention is true/,
  ],
  [
    'an unknown activation',
    () => withConfig('llama', { hidden_act: 'relu' }),
    RangeError,
    /hidden_act is "relu"; known: silu, gelu_pytorch_tanh/,
  ],
  [
    'layer_types of the wrong length',
    () => withConfig('gemma3', { layer_types: ['full_attention'] }),
    RangeError,
    /layer_types must list num_hidden_layers = 3 entries/,
  ],
  [
    'a shard the index names but files lacks',
    () => shards((f) => delete f['model-00002-of-00002.safetensors']),
    RangeError,
    /places model\.[a-z_.0-9]+ in model-00002-of-00002\.safetensors, which files lacks/,
  ],
  [
    'a tensor in another shard than the index says',
    () =>
      shards((f) => {
        const index = JSON.parse(new TextDecoder().decode(f['model.safetensors.index.json']));
        const name = Object.keys(index.weight_map)[0];
        index.weight_map[name] = 'model-00002-of-00002.safetensors';
        f['model.safetensors.index.json'] = json(index);
      }),
    RangeError,
    /model-00001-of-00002\.safetensors holds model\.embed_tokens\.weight, which model\.safetensors\.index\.json places in model-00002-of-00002\.safetensors/,
  ],
  [
    'an index without a weight_map',
    () => shards((f) => (f['model.safetensors.index.json'] = json({ metadata: {} }))),
    TypeError,
    /model\.safetensors\.index\.json needs a weight_map object/,
  ],
  [
    'both a single file and an index',
    () => shards((f) => (f['model.safetensors'] = bytes('qwen2', 'model.safetensors'))),
    TypeError,
    /files has both 'model\.safetensors' and 'model\.safetensors\.index\.json'/,
  ],
  [
    'weights past the model limit',
    () => withConfig('qwen2', { vocab_size: 2 ** 23, hidden_size: 512 }),
    RangeError,
    /the model needs \d+ MiB for its float32 weights, more than the 4096 MiB of the wasm memory/,
  ],
];

async function stillWorks() {
  await checkLogits('qwen3', folder('qwen3'));
}
await stillWorks(); // the model module is loaded before any case measures its memory

for (const [name, files, ErrorClass, message] of CASES) {
  test(`hostile: ${name} -> ${ErrorClass.name} naming it; nothing allocated; the module keeps working`, async () => {
    const before = a.memoryBytes();
    await assert.rejects(a.openModel(files()), (error) => {
      assert.ok(
        error instanceof ErrorClass,
        `expected ${ErrorClass.name}, got ${error.constructor.name}: ${error.message}`,
      );
      assert.match(error.message, /^openModel: /);
      assert.match(error.message, message);
      return true;
    });
    assert.equal(a.memoryBytes(), before, 'the wasm memory grew for a refused folder');
    await stillWorks();
  });
}
