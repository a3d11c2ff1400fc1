// The model chapter's Llama demo (web/assets/llama-demo/, trained by
// tests/fixtures/make_llama_demo.py) through openModel, against the script's
// float64 NumPy forward pass of the same F16 weights (llama_demo.txt), and the
// chapter's trace of one head on it: the rotation the story writes out
// (explain/rotary.js, with the frequencies it reads from config.json)
// gives the model's rotated q and k, and the weights are the softmax of q̃·k̃/√d.
//
// Tolerances, |got - want| / max(1, |want|), float32 against float64: attention
// weights 1e-5, logits 2e-5, one head's q, k, v and rotated q, k 2e-5; the
// story's rotation against the model's 1e-5; the weights from q̃·k̃ 1e-5.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import {
  demoFiles,
  headMix,
  runSentence,
  shapeOf,
  TENSORS,
  tokenLabels,
} from '../../web/src/site/chapters/model/model.js';
import { inverseFrequencies, rotated, rotationOfConfig } from '../../web/src/site/explain/rotary.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { assertClose, loadFixture } from './fixtures.js';
import { assertArithmetic } from './story-arithmetic.js';

const a = await loadAttention();
const ref = loadFixture('llama_demo.txt');
const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'assets', 'llama-demo');
const SENTENCES = ['the cat sat on the mat.', 'a small dog saw the red bird in the tree.', 'one two three four five'];
const value = {
  'config.json': readFileSync(join(DEMO, 'config.json'), 'utf8'),
  'tokenizer.json': readFileSync(join(DEMO, 'tokenizer.json'), 'utf8'),
  'model.safetensors': readFileSync(join(DEMO, 'model.safetensors')).toString('base64'),
};
const demo = await a.openModel(demoFiles(value));

test('Llama demo: a llama with grouped-query attention; maps and logits match NumPy', () => {
  assert.equal(demo.family, 'llama');
  const shape = shapeOf(demo);
  assert.deepEqual([shape.layers, shape.heads, shape.kvHeads, shape.headDim], [2, 4, 2, 8]);
  assert.equal(shape.rotary, true);
  let worst = 0;
  SENTENCES.forEach((sentence, s) => {
    const r = demo.run(sentence, { logits: true });
    assert.deepEqual(r.ids, Array.from(ref.get(`s${s}.ids`).data), sentence);
    const T = r.ids.length;
    for (let l = 0; l < 2; l++) {
      const want = ref.get(`s${s}.attention${l}`).data;
      for (let h = 0; h < 4; h++)
        worst = Math.max(
          worst,
          assertClose(r.attentions[l][h].data, want.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
            label: `${sentence} L${l} H${h}`,
          }),
        );
    }
    assertClose(r.logits, ref.get(`s${s}.logits`).data, 2e-5, { label: `${sentence} logits` });
  });
  console.log(`# worst map difference ${worst.toExponential(2)} (tolerance 1e-5)`);
  const loss = ref.get('loss.held_out').data[0];
  const baseline = ref.get('loss.baseline').data[0];
  console.log(`# held-out loss ${loss.toFixed(3)} nats/token vs ln(320) = ${baseline.toFixed(3)}`);
  assert.ok(loss < baseline - 2);
});

test('Llama demo: explainHead (layer 2, head 3) matches NumPy; the trace’s rotation and weights are the model’s', async () => {
  const sentence = SENTENCES[1];
  const inputs = await demo.explainHead(sentence, { layer: 1, head: 2 });
  for (const name of ['q', 'k', 'v', 'qRotated', 'kRotated'])
    assertClose(inputs[name].data, ref.get(`s1.L1H2.${name}`).data, 2e-5, { label: name });
  assert.equal(inputs.kvHead, 1, 'head 3 of 4 reads kv head 2 of 2');
  const shape = shapeOf(demo);
  const { base, scaling } = rotationOfConfig(demo.config, shape.window(1) !== null);
  const invFreq = inverseFrequencies(shape.headDim, base, scaling);
  let worst = 0;
  for (let r = 0; r < inputs.q.rows; r++)
    for (let c = 0; c < inputs.q.cols; c++) {
      worst = Math.max(worst, Math.abs(rotated(inputs.q, invFreq, r, c) - inputs.qRotated.get(r, c)));
      worst = Math.max(worst, Math.abs(rotated(inputs.k, invFreq, r, c) - inputs.kRotated.get(r, c)));
    }
  assert.ok(worst < 1e-5, `rotation written out vs the model's: ${worst}`);
  const r = await runSentence(demo, sentence);
  const weights = r.attentions[1][2];
  const trace = new Trace();
  const tokens = await tokenLabels(demo, sentence, r.tokens);
  headMix(a, trace, inputs, weights, tokens, { shape, layer: 1, config: demo.config });
  // The scores the trace holds are q̃·k̃; their softmax over √8 (causal) is the model's weight.
  const scores = trace.value(TENSORS.scores);
  const i = 6;
  const row = Array.from({ length: i + 1 }, (_, j) => {
    let dot = 0;
    for (let c = 0; c < 8; c++) dot += inputs.qRotated.get(i, c) * inputs.kRotated.get(j, c);
    assert.ok(Math.abs(scores.get(i, j) - dot) < 1e-12);
    return dot / Math.sqrt(8);
  });
  const sum = row.reduce((t, x) => t + Math.exp(x), 0);
  row.forEach((x, j) => assert.ok(Math.abs(Math.exp(x) / sum - weights.get(i, j)) < 1e-5));
  // The chapter's figures: every tensor but the scores and the mask (their stories follow the weight's).
  const drawn = ['q', 'k', 'v', 'qRotated', 'kRotated', 'weights', 'mix'];
  const figures = Object.fromEntries(drawn.map((n) => [TENSORS[n], {}]));
  const story = storyForFigures(trace, figures);
  assert.match(story(TENSORS.weights)(i, 2).text, /over row 7 of score\/√8; .*= q̃7 .* · k̃3 /);
  const turn = story(TENSORS.qRotated)(3, 1).text;
  assert.match(turn, /^Q̃\[4\]\[2\] .*= Q\[4\]\[2\]·cos\(3·θ2\) − Q\[4\]\[6\]·sin\(3·θ2\) = .*; θ2 is /);
  // Every rotated cell: the printed arithmetic gives the model's number, within the printed digits.
  for (const [name, m] of [
    [TENSORS.qRotated, inputs.qRotated],
    [TENSORS.kRotated, inputs.kRotated],
  ])
    for (let r = 0; r < m.rows; r++)
      for (let c = 0; c < m.cols; c++) {
        const text = story(name)(r, c).text;
        assert.doesNotMatch(text, /but the model's value/);
        assertArithmetic(text.slice(0, text.indexOf('; θ')), m.get(r, c), `${name} (${r}, ${c})`);
      }
});
