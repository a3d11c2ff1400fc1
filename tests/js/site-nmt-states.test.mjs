// The NMT chapter's encoder outputs and decoder states explained from the GRU
// weights (lesson-kit/gru-states.js, explain/gru.js): a small Seq2SeqTrainer,
// trained a little and reloaded from its own checkpoint (so its weights are the
// float32 numbers the engine's 'weights' message carries), translates a date;
// every state's story must print arithmetic that evaluates, from its printed
// numbers, to the trainer's own encoderOutputs and decoderStates (the op's
// numbers, computed in C++), and so must every gate of it (story-arithmetic.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { checkpointParameters } from '../../web/src/site/lesson-kit/nmt-engine.js';
import { recurrentWeights, stateStories } from '../../web/src/site/lesson-kit/gru-states.js';
import { assertArithmetic, lastStep, evaluate, valueOf } from './story-arithmetic.js';

const a = await loadAttention();
const at = (m, r, c) => m.data[r * m.cols + c];

function smallModel() {
  // hidden 4 and embedding 3: every sum is short enough to be printed whole (format.js folds past 12 terms).
  const trained = new a.Seq2SeqTrainer({ task: 'dates', hidden: 4, embedding: 3, seed: 3 });
  trained.train(30);
  const model = a.Seq2SeqTrainer.load(trained.save());
  trained.delete();
  return model;
}

/** Every "… = expression = value" part of a story evaluates to its printed value (within printed precision). */
function assertParts(text, label) {
  let parts = 0;
  for (const part of text.split('; ')) {
    if (part.split(' = ').length < 3) continue; // a name, not a computation
    const { expression, printed } = lastStep(part);
    const [lo, hi] = evaluate(expression);
    const value = valueOf(printed);
    const unit = Math.max(Math.abs(value) * 5e-4, 5e-5);
    assert.ok(lo - unit <= value && value <= hi + unit, `${label}: ${part} gives [${lo}, ${hi}]`);
    parts++;
  }
  return parts;
}

test('checkpointParameters: the float32 parameters the trainer saved, as many as it counts', () => {
  const model = smallModel();
  try {
    const p = checkpointParameters(model);
    assert.equal(p.length, model.parameterCount);
    assert.ok(p.some((x) => x !== 0));
  } finally {
    model.delete();
  }
});

test('encoder outputs and decoder states: the stories’ arithmetic gives the trainer’s own numbers', () => {
  const model = smallModel();
  try {
    const t = { ...model.translate('21 Nov 2026'), input: '21 Nov 2026' }; // as the engine sends it
    assert.ok(t.output.length > 0, 'the model wrote something');
    const weights = recurrentWeights(checkpointParameters(model), {
      alphabet: model.inputAlphabet,
      outputAlphabet: model.outputAlphabet,
      ...model.options,
    });
    const stories = stateStories(t, weights, { alphabet: model.inputAlphabet, outputAlphabet: model.outputAlphabet });
    let checked = 0;
    let parts = 0;
    for (let j = 0; j < t.encoderOutputs.rows; j++) {
      for (let c = 0; c < t.encoderOutputs.cols; c++) {
        const story = stories.encoder(j, c);
        const [sum] = story.text.split('; ');
        assertArithmetic(sum, at(t.encoderOutputs, j, c), `s${j + 1}[${c + 1}]`);
        parts += assertParts(story.text, `s${j + 1}[${c + 1}]`);
        assert.deepEqual(story.sources.inputs[0], [j, 0]);
        checked++;
      }
    }
    for (let r = 0; r < t.decoderStates.rows; r++) {
      for (let c = 0; c < t.decoderStates.cols; c++) {
        const story = stories.decoder(r, c);
        // The state's own step: the part that starts with h<r+1>[c+1].
        const own = story.text.split('; ').find((p) => p.includes(`h${r + 1}[${c + 1}] = (1 − z)`));
        assert.ok(own, story.text);
        assertArithmetic(own, at(t.decoderStates, r, c), `h${r + 1}[${c + 1}]`);
        parts += assertParts(story.text, `h${r + 1}[${c + 1}]`);
        if (r === 0) assert.ok(story.sources.encoder.length > 0, 'h1 outlines the encoder states h0 is made of');
        checked++;
      }
    }
    assert.equal(checked, 4 * (t.encoderOutputs.rows + t.decoderStates.rows));
    assert.ok(parts > 5 * checked, `${parts} gate computations checked`);
  } finally {
    model.delete();
  }
});
