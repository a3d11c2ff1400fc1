// The trained chapter's RNN scores explained (issue 35): W_a sliced from a
// Seq2SeqTrainer's checkpoint (chapters/trained/model.js rnnScoreWeights) must
// give back the scores the trainer computed, e_tj = (h_t W_a) · s_j, checked
// here with plain float64 loops (not the API); and the traced scores explain a
// cell with arithmetic that evaluates to its value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { checkpointParameters } from '../../web/src/site/lesson-kit/nmt-engine.js';
import { rnnScoreWeights, traceRnn } from '../../web/src/site/chapters/trained/model.js';
import { evaluate, lastStep, valueOf } from './story-arithmetic.js';

const a = await (await loadAttention()).loadTrainers();
const at = (m, r, c) => m.data[r * m.cols + c];

/** A small trained RNN with the given score, reloaded from its checkpoint (the weights it saved). */
function model(attention) {
  const trained = new a.Seq2SeqTrainer({ task: 'dates', attention, hidden: 4, embedding: 3, seed: 5 });
  trained.train(20);
  const reloaded = a.Seq2SeqTrainer.load(trained.save());
  trained.delete();
  return reloaded;
}

const layoutOf = (rnn) => ({
  inputAlphabet: rnn.inputAlphabet,
  outputAlphabet: rnn.outputAlphabet,
  embedding: rnn.options.embedding,
  hidden: rnn.options.hidden,
});

test('rnnScoreWeights: (h_t W_a) · s_j over the sliced W_a is the trainer’s every score (float64 loops, 1e-12 relative)', () => {
  const rnn = model('luong-general');
  try {
    const Wa = rnnScoreWeights(checkpointParameters(rnn), layoutOf(rnn));
    assert.deepEqual([Wa.rows, Wa.cols], [4, 4]);
    let cells = 0;
    for (const input of ['21 November 2026', '3/4/99']) {
      const r = rnn.translate(input);
      const H = r.decoderStates.cols;
      for (let t = 0; t < r.scores.rows; t++) {
        for (let j = 0; j < r.scores.cols; j++) {
          let e = 0;
          for (let k = 0; k < H; k++) {
            let q = 0;
            for (let i = 0; i < H; i++) q += at(r.decoderStates, t, i) * at(Wa, i, k);
            e += q * at(r.encoderOutputs, j, k);
          }
          const want = at(r.scores, t, j);
          assert.ok(
            Math.abs(e - want) <= 1e-12 * Math.max(1, Math.abs(want)),
            `${input} (${t}, ${j}): ${e} vs ${want}`,
          );
          cells++;
        }
      }
    }
    assert.ok(cells >= 16 * 10, `${cells} scores checked`);
  } finally {
    rnn.delete();
  }
});

test('rnnScoreWeights: refuses parameters that end before W_a', () => {
  const rnn = model('luong-general');
  try {
    const p = checkpointParameters(rnn);
    assert.throws(() => rnnScoreWeights(p.subarray(0, 50), layoutOf(rnn)), RangeError);
  } finally {
    rnn.delete();
  }
});

test('traceRnn: a score explains itself as hW_a · s_j down to W_a, and a weight as the softmax of its row', () => {
  const rnn = model('luong-general');
  try {
    const r = rnn.translate('21 November 2026');
    const trace = new Trace();
    const Wa = rnnScoreWeights(checkpointParameters(rnn), layoutOf(rnn));
    const rowLabels = Array.from(r.output);
    const colLabels = Array.from('21 November 2026');
    traceRnn(a, trace, r, { Wa, rowLabels, colLabels });
    let checked = 0;
    for (const [t, j] of [
      [0, 0],
      [r.scores.rows - 1, r.scores.cols - 1],
    ]) {
      const story = trace.explain('rnn.scores', t, j);
      assert.deepEqual(
        story.sources.map((s) => s.tensor ?? s.name ?? s).length > 0,
        true,
        `score (${t}, ${j}) names its sources`,
      );
      const { expression, printed } = lastStep(story.text);
      const [lo, hi] = evaluate(expression);
      const value = valueOf(printed);
      const unit = Math.max(Math.abs(value) * 5e-4, 5e-5);
      assert.ok(lo - unit <= value && value <= hi + unit, `${story.text} gives [${lo}, ${hi}]`);
      assert.ok(Math.abs(value - at(r.scores, t, j)) <= 5e-4 * Math.max(1, Math.abs(at(r.scores, t, j))), story.text);
      checked++;
    }
    assert.equal(checked, 2);
    // The queries h_t W_a are the API's matmul: one of them, against float64 loops.
    const q = trace.value('rnn.queries');
    let q00 = 0;
    for (let i = 0; i < 4; i++) q00 += at(r.decoderStates, 0, i) * at(Wa, i, 0);
    assert.ok(Math.abs(at(q, 0, 0) - q00) <= 1e-12 * Math.max(1, Math.abs(q00)));
    assert.match(trace.explain('rnn.weights', 0, 0).text, /softmax|e\^|exp/);
  } finally {
    rnn.delete();
  }
});

test('traceRnn: an additive score is recorded as the trainer gave it (an input, nothing to slice)', () => {
  const rnn = model('bahdanau');
  try {
    const r = rnn.translate('1 May 2000');
    const trace = new Trace();
    traceRnn(a, trace, r, { rowLabels: Array.from(r.output), colLabels: Array.from('1 May 2000') });
    assert.equal(trace.explains('rnn.scores'), false);
    assert.equal(trace.explains('rnn.weights'), true);
  } finally {
    rnn.delete();
  }
});
