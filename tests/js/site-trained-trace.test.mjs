// The trained chapter's queries and keys explained (issue 35): traceTranslation
// (chapters/trained/model.js) records each use and layer's Q and K as x W + b
// over the rows, weights and biases the trainer returned, so a q or k cell
// tells its sum with the row of x, the column of W and the entry of b as its
// sources; the sum printed must evaluate to the trainer's own value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { projectionTensor, sourceTensor, traceTranslation } from '../../web/src/site/chapters/trained/model.js';
import { assertArithmetic } from './story-arithmetic.js';

const a = await (await loadAttention()).loadTrainers();
const at = (m, r, c) => m.data[r * m.cols + c];

test('traceTranslation: every q and k cell is x·W[:, c] + b[c] of what the trainer returned, its arithmetic exact', () => {
  const t = new a.TransformerTrainer({ layers: 2, heads: 2, dModel: 8, dFF: 8, batch: 8, seed: 3 });
  try {
    t.train(3);
    const input = '3 May 1999';
    const r = t.translate(input);
    const trace = new Trace();
    traceTranslation(a, trace, r, input);
    let checked = 0;
    for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
      for (let layer = 0; layer < 2; layer++) {
        for (const [which, values] of [
          ['Q', r.queries[use][layer]],
          ['K', r.keys[use][layer]],
        ]) {
          const name = projectionTensor(use, layer, which);
          assert.ok(trace.explains(name), `${name} is computed, not an input`);
          for (const [row, col] of [
            [0, 0],
            [values.rows - 1, values.cols - 1],
          ]) {
            const story = trace.explain(name, row, col);
            assertArithmetic(story.text, at(values, row, col), `${name}[${row}][${col}]`);
            const source = (part) => story.sources.find((s) => s.tensor === sourceTensor(use, layer, which, part));
            assert.deepEqual(
              source('x').cells,
              Array.from({ length: 8 }, (_, k) => [row, k]),
            );
            assert.deepEqual(
              source('W').cells,
              Array.from({ length: 8 }, (_, k) => [k, col]),
            );
            assert.deepEqual(source('b').cells, [[0, col]]);
            checked++;
          }
        }
      }
    }
    assert.equal(checked, 24);
    // A head's weight still explains itself from the recorded queries and keys.
    assert.match(trace.explain('cross.L1.H0.weights', 0, 0).text, /softmax|e\^|exp/);
  } finally {
    t.delete();
  }
});
