// The chapters' recordings (transformer/model.js through the traced API, trained/model.js):
// every computed tensor a figure draws explains its cells, and the arithmetic
// of each story evaluates, from its printed numbers, to the tensor's own value
// (story-arithmetic.js); a trained head's weight opens down to q·k of the
// queries and keys TransformerTrainer.translate() returns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import * as M from '../../web/src/site/chapters/transformer/model.js';
import { headTensor, projectionTensor, traceTranslation } from '../../web/src/site/chapters/trained/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { assertArithmetic } from './story-arithmetic.js';

const a = await loadAttention();
const at = (m, r, c) => m.data[r * m.cols + c];
/** The arithmetic part of a story: up to ", over row …" or the first "; ". */
const arithmetic = (text) => text.split('; ')[0].replace(/, over row .*$/, '');

test('hands-on Transformer: every computed figure’s tensor explains its cells with arithmetic that adds up', () => {
  const tokens = ['the', 'cat', 'sat', 'on', 'the'];
  const trace = new Trace();
  const inputs = M.drawInputs(a, tokens, 4, 3);
  const traced = { trace, labels: tokens }; // each step computes through the trace
  const proj = M.projections(a, inputs, undefined, traced);
  const mask = M.buildMask(5, { padding: 1, causal: true, flips: new Set() });
  M.maskedAttention(a, proj, mask, undefined, traced);
  M.multiHeadByHand(a, inputs, proj, 2, mask, undefined, traced);
  const demo = M.scalingDemo(a, 1).find((d) => d.dk === 8); // 8 products: short enough to print whole
  const demoWeights = { rows: 2, cols: 8, data: Float64Array.from([...demo.wRaw, ...demo.wScaled]) };
  M.recordDemo(a, trace, demo, demoWeights);
  M.threeUses(a, { source: 'le chat noir <pad>', target: '<s> the cat', usesSeed: 1 }, trace);
  const copies = new Set(['concat']);
  const computed = ['Q', 'K', 'V', 'raw', 'scaled', 'weights', 'output', 'masked', 'maskedOut', 'head0.weights'];
  computed.push('head1.weights', 'concat', 'mha', 'demo.weights', 'demo.raw', 'demo.scaled');
  for (let u = 0; u < 3; u++) computed.push(`uses${u}.head0.weights`, `uses${u}.head1.weights`);
  assert.equal(computed.length, 22, 'the chapter’s 20 computed figures (the √d_k demo included) and its 2 scores');
  let checked = 0;
  for (const name of computed) {
    const value = trace.value(name);
    for (let r = 0; r < value.rows; r++) {
      for (let c = 0; c < value.cols; c++) {
        const story = trace.explain(name, r, c);
        if (/= 0: the mask cell/.test(story.text)) {
          assert.equal(at(value, r, c), 0);
          continue;
        }
        if (copies.has(name)) continue; // a copy: its printed value is checked in explain-attention-ops
        assertArithmetic(arithmetic(story.text), at(value, r, c), `${name}[${r}][${c}]: ${story.text}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 300, `${checked} cells checked`);
  // A head of a use opens down to its score q·k, whose own arithmetic adds up too.
  const story = storyForFigures(trace, { 'uses.S': 'S', 'uses.T': 'T' })('uses2.head1.weights')(1, 0);
  const score = story.text.split('; ').at(-1);
  assert.match(score, /^score2\[1\]\[2\]|^score2\[2\]\[1\]/);
  assertArithmetic(score, at(trace.value('uses2.head1.scores'), 1, 0));
  assert.deepEqual(story.sources.map((s) => s.figure).sort(), ['S', 'T']);
  // The √d_k demo's scaled weight opens down to q1 · k3: outlines q1 and the keys, and each step adds up.
  const demoStory = storyForFigures(trace, { 'demo.q': 'q', 'demo.k': 'k' })('demo.weights')(1, 2);
  const outlined = Object.fromEntries(demoStory.sources.map((s) => [s.figure, s.cells]));
  assert.deepEqual(Object.keys(outlined).sort(), ['k', 'q']);
  assert.deepEqual(
    outlined.q,
    Array.from({ length: 8 }, (_, i) => [0, i]),
    'all of q1',
  );
  // A weight's softmax reads the whole row of scores: every key k1 … k8.
  assert.equal(outlined.k.length, 8 * 8, 'all of k1 … k8');
  const [, stacked, scaled] = demoStory.text.split('; ');
  assert.match(stacked, /^scores\[2\]\[3\] = ŝ3 = /);
  assertArithmetic(scaled, demo.scaled8[2], scaled);
});

test('trained Transformer: every head of every layer of the three uses opens down to q·k/√d_k', () => {
  const t = new a.TransformerTrainer({ layers: 2, heads: 2, dModel: 8, dFF: 8, batch: 4 });
  try {
    t.train(2);
    const input = '1 May 2001';
    const r = t.translate(input);
    const trace = new Trace();
    traceTranslation(a, trace, r, input);
    let checked = 0;
    for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
      for (let layer = 0; layer < 2; layer++) {
        const figures = { [projectionTensor(use, layer, 'Q')]: 'Q', [projectionTensor(use, layer, 'K')]: 'K' };
        const explain = storyForFigures(trace, figures);
        const [Q, K] = [r.queries[use][layer], r.keys[use][layer]];
        for (let h = 0; h < 2; h++) {
          const map = r[use][layer][h];
          for (let i = 0; i < map.rows; i++) {
            for (let j = 0; j < map.cols; j++) {
              const story = explain(headTensor(use, layer, h))(i, j);
              if (use === 'decoderSelf' && j > i) {
                assert.match(story.text, /= 0: the mask cell M\[\d+\]\[\d+\] is 0 \(masked\)/);
                continue;
              }
              assertArithmetic(arithmetic(story.text), map.get(i, j), story.text);
              let dot = 0;
              for (let c = 4 * h; c < 4 * h + 4; c++) dot += Q.get(i, c) * K.get(j, c);
              assertArithmetic(story.text.split('; ').at(-1), dot, story.text);
              assert.deepEqual(story.sources.map((s) => s.figure).sort(), ['K', 'Q']);
              checked++;
            }
          }
        }
      }
    }
    assert.ok(checked > 500, `${checked} weights checked`);
  } finally {
    t.delete();
  }
});
