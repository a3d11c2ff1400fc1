// The model chapter's head trace (headMix, web/src/site/chapters/model/model.js)
// for the families beyond GPT-2, on the fixtures' real explainHead answers: a
// rotary family's q as x·W (+ b), Qwen3's and Gemma 3's q as the RMS norm of
// x·W (the gain 1 + q_norm.weight for Gemma), and BERT's q as x·W + b with its
// weights over both directions (no mask). Each story's last number is the
// model's own (within the half unit it is printed to), and its sources are the
// figures it was computed from.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { headMix, shapeOf, TENSORS } from '../../web/src/site/chapters/model/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { bertFiles } from './bert-files.js';
import { halfUnit, valueOf } from './story-arithmetic.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const a = await loadAttention();

function folder(family) {
  const names = readdirSync(join(ROOT, family)).filter(
    (n) => !['make.py', 'expected.txt', '__pycache__'].includes(n) && !n.startsWith('model-'),
  );
  return Object.fromEntries(names.map((n) => [n, new Uint8Array(readFileSync(join(ROOT, family, n)))]));
}

/** The story's printed result is `want` to the precision it is printed with. */
function printsValue(text, want) {
  const shown = text.slice(text.lastIndexOf(' = ') + 3);
  assert.ok(Math.abs(valueOf(shown) - want) <= halfUnit(shown.replace('−', '')) + 1e-12, `${want}: ${text}`);
}

/** headMix on layer 1, head 1 of `m` for `text`: the trace, its inputs and a story reader. */
async function traced(m, text, figureNames) {
  const layer = 1;
  const head = 1;
  const shape = shapeOf(m);
  const r = m.run(text);
  const inputs = await m.explainHead(text, { layer, head });
  const trace = new Trace();
  headMix(a, trace, inputs, r.attentions[layer][head], r.tokens, { shape, layer, config: m.config });
  const figures = Object.fromEntries(figureNames.map((n) => [n, {}]));
  const story = (name, i, j) => storyForFigures(trace, figures)(name)(i, j);
  const from = (s) => s.sources.map((x) => Object.keys(figures).find((k) => figures[k] === x.figure)).sort();
  return { inputs, story, from };
}

for (const family of ['llama', 'qwen2', 'qwen3', 'gemma3']) {
  test(`${family}: the head trace explains q from x and W (and the QK-norm), down to the model's numbers`, async () => {
    const m = await a.openModel(folder(family));
    try {
      const normed = family === 'qwen3' || family === 'gemma3';
      const drawn = [TENSORS.x, TENSORS.W, TENSORS.q, TENSORS.k, TENSORS.v, TENSORS.qPre, TENSORS.kPre];
      const { inputs, story, from } = await traced(m, 'the cat sat', drawn);
      const bias = family === 'qwen2' ? ' \\+ b_q\\[2\\]' : '';
      const projected = story(normed ? TENSORS.qPre : TENSORS.q, 1, 1);
      assert.match(projected.text, new RegExp(`^Q(_pre)?\\[2\\]\\[2\\] .* = x2 .* · W_q\\[:, 2\\]${bias} = `));
      printsValue(projected.text, (normed ? inputs.qPre : inputs.q).get(1, 1));
      assert.deepEqual(from(projected), [TENSORS.W, TENSORS.x]);
      if (normed) {
        const q = story(TENSORS.q, 1, 1);
        assert.match(
          q.text,
          /^rms\(Q_pre\[2\] .*\) = √\(.*\) = \S+; Q\[2\]\[2\] .* = Q_pre\[2\]\[2\] \/ rms · g_q2 = /,
        );
        printsValue(q.text, inputs.q.get(1, 1));
        assert.deepEqual(from(q), [TENSORS.qPre]);
        // The gain in the story is q_norm's weight, plus 1 for Gemma (normOffset).
        const gain = (family === 'gemma3' ? 1 : 0) + inputs.qNormWeight.get(0, 1);
        const printed = q.text.slice(q.text.lastIndexOf('· ') + 2).split(' = ')[0];
        assert.ok(Math.abs(valueOf(printed.replace(/[()]/g, '')) - gain) <= halfUnit(printed.replace(/[()−]/g, '')));
      }
    } finally {
      m.delete();
    }
  });
}

test('bert: q as x·W + b, and a weight over both directions with no mask', async () => {
  const m = await a.openModel(bertFiles());
  try {
    const drawn = [TENSORS.x, TENSORS.W, TENSORS.q, TENSORS.k, TENSORS.v, TENSORS.weights];
    const { inputs, story, from } = await traced(m, 'the cat sat on the [MASK] .', drawn);
    const q = story(TENSORS.q, 1, 0);
    assert.match(q.text, /^Q\[2\]\[1\] \(the\) = x2 \(the\) · W_q\[:, 1\] \+ b_q\[1\] = /);
    printsValue(q.text, inputs.q.get(1, 0));
    assert.deepEqual(from(q), [TENSORS.W, TENSORS.x]);
    // Query 1 ([CLS]) reads the last key: a real weight, over √d_k = √4, not a masked 0.
    const T = inputs.ids.length;
    const w = story(TENSORS.weights, 0, T - 1);
    assert.match(w.text, /over row 1 of score\/√4/);
    assert.doesNotMatch(w.text, /masked/);
    assert.deepEqual(from(w), [TENSORS.k, TENSORS.q]);
  } finally {
    m.delete();
  }
});
