// The model chapter's overview boxes (web/src/site/chapters/model/architecture.js)
// against each fixture checkpoint's own tensors: every norm a layer-1 box names is
// a tensor of that name in model.safetensors, of D numbers; every weight shape a
// box states is the stored tensor's (read from the safetensors header, not from
// the config the boxes were drawn from), and a layer's weight count is the sum of
// its stored matrices. Also AttentionRows (rows.js): the run's
// rows, then a step's row stored under its query's position.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { architectureOf } from '../../web/src/site/chapters/model/architecture.js';
import { shapeOf } from '../../web/src/site/chapters/model/family.js';
import { generationOptions } from '../../web/src/site/chapters/model/model.js';
import { AttentionRows } from '../../web/src/site/chapters/model/rows.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const api = await loadAttention();

/** The safetensors header: tensor name -> shape. */
function header(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  return Object.fromEntries(Object.entries(json).flatMap(([k, v]) => (k === '__metadata__' ? [] : [[k, v.shape]])));
}

async function open(family) {
  const dir = join(FIXTURES, family);
  const names = ['config.json', 'model.safetensors', family === 'bert' ? 'vocab.txt' : 'tokenizer.json'];
  const files = Object.fromEntries(names.map((n) => [n, readFileSync(join(dir, n))]));
  const model = await api.openModel(files);
  return { model, tensors: header(files['model.safetensors']) };
}

/** "name … = a × b" in a box's weights text, as [a, b]. */
function stated(text, name) {
  const m = text.match(new RegExp(`${name.replace(/[.+]/g, '\\$&')}[^,=]*= (\\d+) × (\\d+)`));
  assert.ok(m, `${name} in "${text}"`);
  return [Number(m[1]), Number(m[2])];
}

const PREFIX = { gpt2: 'h.0.', bert: 'bert.encoder.layer.0.' };
const T = 5;

for (const family of ['gpt2', 'bert', 'llama', 'qwen2', 'qwen3', 'gemma3']) {
  test(`${family}: the overview's layer-1 norms and weight shapes are the checkpoint's tensors`, async () => {
    const { model, tensors } = await open(family);
    try {
      const arch = architectureOf(model, T, shapeOf(model).window);
      const prefix = PREFIX[family] ?? 'model.layers.0.';
      const D =
        tensors[
          family === 'gpt2'
            ? 'wte.weight'
            : family === 'bert'
              ? 'bert.embeddings.word_embeddings.weight'
              : 'model.embed_tokens.weight'
        ][1];
      const [first] = arch.layers;
      for (const box of first.boxes) {
        assert.deepEqual(box.shape.values.slice(0, 1), [T]);
        if (box.kind === 'norm') assert.deepEqual(tensors[`${prefix}${box.name}.weight`], [D], box.name);
      }
      const weights = (kind) => first.boxes.find((b) => b.kind === kind).weights;
      const attention = weights('attention');
      const mlp = weights('mlp');
      if (family === 'gpt2') {
        assert.deepEqual(stated(attention, 'c_attn'), tensors['h.0.attn.c_attn.weight']);
        assert.deepEqual(stated(mlp, 'c_fc'), tensors['h.0.mlp.c_fc.weight']);
        assert.deepEqual(stated(arch.input[0].weights, 'wte'), tensors['wte.weight']);
        assert.deepEqual(stated(arch.input[0].weights, 'wpe'), tensors['wpe.weight']);
      } else if (family === 'bert') {
        const [, F] = stated(mlp, 'intermediate.dense');
        assert.deepEqual([F, D], tensors[`${prefix}intermediate.dense.weight`]); // stored out × in
        assert.deepEqual(
          stated(arch.input[0].weights, 'word_embeddings'),
          tensors['bert.embeddings.word_embeddings.weight'],
        );
      } else {
        // Stored as Linear's out × in; the boxes write in × out.
        const transposed = (name) => [...tensors[`${prefix}${name}.weight`]].reverse();
        assert.deepEqual(stated(attention, 'q_proj'), transposed('self_attn.q_proj'));
        assert.deepEqual(stated(attention, 'k_proj and v_proj'), transposed('self_attn.k_proj'));
        assert.deepEqual(stated(attention, 'o_proj'), transposed('self_attn.o_proj'));
        assert.deepEqual(stated(mlp, 'gate_proj, up_proj'), transposed('mlp.gate_proj'));
        assert.deepEqual(stated(arch.input[0].weights, 'embed_tokens'), tensors['model.embed_tokens.weight']);
        const qNorm = tensors[`${prefix}self_attn.q_norm.weight`];
        const said = attention.match(/q_norm and k_norm hd = (\d+)/);
        assert.deepEqual(said && [Number(said[1])], qNorm ?? null);
      }
      // A layer's weights: the sum of layer 1's stored matrices of attention and of the MLP.
      const matrices = (pattern) =>
        Object.entries(tensors)
          .filter(([k, shape]) => k.startsWith(prefix) && shape.length === 2 && pattern.test(k.slice(prefix.length)))
          .reduce((n, [, [a, b]]) => n + a * b, 0);
      assert.deepEqual(arch.perLayer, {
        attention: matrices(/^(attn|attention|self_attn)\./),
        mlp: matrices(/^(mlp\.|intermediate\.|output\.dense)/),
      });
      const norms = Object.keys(tensors).filter(
        (k) => k.startsWith(prefix) && /(norm|LayerNorm|ln_\d)\.weight$/.test(k),
      );
      const drawn = first.boxes.filter((b) => b.kind === 'norm').length;
      // Every layer norm of the checkpoint's layer 1 is drawn (q_norm and k_norm live inside attention).
      assert.equal(drawn, norms.filter((k) => !/[qk]_norm/.test(k)).length, norms.join(', '));
    } finally {
      model.delete();
    }
  });
}

test('AttentionRows: the run’s rows, then a step’s rows under the position of its query', () => {
  const m = { rows: 2, cols: 2, data: Float32Array.from([1, 0, 0.25, 0.75]) };
  const rows = new AttentionRows([[m]], true);
  assert.equal(rows.length, 2);
  assert.deepEqual(Array.from(rows.row(0, 0, 1)), [0.25, 0.75]);
  // generate's step 0 reads the prompt's last position again, step 1 the first new token.
  assert.equal(rows.add([[Float32Array.from([0.25, 0.75])]]), 1);
  assert.equal(rows.add([[Float32Array.from([0.5, 0.25, 0.25])]]), 2);
  assert.equal(rows.length, 3);
  assert.deepEqual(Array.from(rows.matrix(0, 0).data), [1, 0, 0, 0.25, 0.75, 0, 0.5, 0.25, 0.25]);
  assert.throws(() => rows.add([[new Float32Array(4)], [new Float32Array(4)]]), RangeError);
});

test('generationOptions: no cut when top-k is 0 or top-p 1; max tokens within the positions left', () => {
  const state = { temperature: 0.5, topK: 0, topP: 1, maxTokens: 20, seed: 3 };
  assert.deepEqual(generationOptions(state, 10, 64, 320, [50256, 7]), {
    options: { maxTokens: 20, temperature: 0.5, seed: 3, stop: [7] },
    cut: null,
  });
  assert.deepEqual(generationOptions({ ...state, topK: 999, topP: 0.9 }, 60, 64, 320), {
    options: { maxTokens: 4, temperature: 0.5, seed: 3, stop: [], topK: 320, topP: 0.9 },
    cut: 4,
  });
  assert.match(generationOptions(state, 64, 64, 320).message, /all 64 positions/);
});
