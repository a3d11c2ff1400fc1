// Canaries for the memory-safety tests (issue 27) (and fillHeap(), below): objects that live in the
// wasm heap next to whatever a hostile call touches. A call that writes outside
// its own buffers shows up as a canary that changed:
//   - a loaded GloVe table still finds "teacher", with the same vector;
//   - a RandomState(0) stream goes on exactly as NumPy's (tests/fixtures/random.txt,
//     every 97th normal of the seed-0 stream, tolerance 0);
//   - a Seq2SeqTrainer and a TransformerTrainer save the same checkpoint bytes;
//   - dot and dotScores give the notebook's numbers (927; [927, 397, 148, 929]).
import assert from 'node:assert/strict';
import { loadFixture } from './fixtures.js';

const STRIDE = 97;
const decoder = [5, 1, 20];
const annotations = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];

/** NumPy's seed-0 normals at positions 0, 97, 194, ... */
function numpyEvery97th() {
  const ref = loadFixture('random.txt');
  const indices = ref.get('stream0.indices').data;
  const values = ref.get('stream0.values').data;
  const byIndex = new Map();
  indices.forEach((index, i) => byIndex.set(index, values[i]));
  const out = [];
  for (let index = 0; byIndex.has(index); index += STRIDE) out.push(byIndex.get(index));
  return out;
}

/** Builds the canaries in `a`'s heap; `check()` throws an AssertionError naming the one that changed. */
export async function makeCanaries(a) {
  const glove = await a.loadDefaultEmbeddings();
  const teacher = glove.vector('teacher');
  assert.ok(teacher, 'the shipped table has "teacher"');
  const expectedNormals = numpyEvery97th();
  const rs = new a.RandomState(0);
  let draws = 0;
  const seq2seq = new a.Seq2SeqTrainer({ seed: 3 });
  const transformer = new a.TransformerTrainer({ seed: 3 });
  seq2seq.train(1);
  transformer.train(1);
  const seq2seqBytes = seq2seq.save();
  const transformerBytes = transformer.save();

  return {
    /** How many more RandomState checks the NumPy fixture covers. */
    get checksLeft() {
      return expectedNormals.length - draws;
    },
    /**
     * `full: false` checks only dot, dotScores and the GloVe table, not the RandomState draw (the
     * fixture covers ~2,000 of them) nor the trainers' checkpoints (the slow part): a corruption
     * stays, so the next full check still sees it.
     */
    check(when = '', { full = true } = {}) {
      const at = when ? ` (after ${when})` : '';
      assert.equal(a.dot(decoder, [3, 12, 45]), 927, `dot changed${at}`);
      assert.deepEqual(Array.from(a.dotScores(decoder, annotations)), [927, 397, 148, 929], `dotScores changed${at}`);
      assert.ok(glove.has('teacher'), `the GloVe table lost "teacher"${at}`);
      assert.deepEqual(glove.vector('teacher'), teacher, `the GloVe vector of "teacher" changed${at}`);
      if (!full) return;
      if (draws < expectedNormals.length) {
        const got = rs.randn(1, STRIDE).data[0];
        assert.ok(Object.is(got, expectedNormals[draws]), `RandomState left NumPy's stream at draw ${draws}${at}`);
        draws++;
      }
      assert.deepEqual(seq2seq.save(), seq2seqBytes, `the Seq2SeqTrainer's checkpoint changed${at}`);
      assert.deepEqual(transformer.save(), transformerBytes, `the TransformerTrainer's checkpoint changed${at}`);
    },
    delete() {
      for (const object of [glove, rs, seq2seq, transformer]) object.delete();
    },
  };
}

/**
 * Makes Seq2SeqTrainers of `options` until the wasm heap refuses one (a RangeError, checked);
 * pushes them onto `fillers` and returns it.
 */
export function fillHeap(a, options, fillers = []) {
  for (;;) {
    try {
      fillers.push(new a.Seq2SeqTrainer(options));
    } catch (error) {
      assert.ok(error instanceof RangeError, String(error));
      return fillers;
    }
  }
}

/**
 * The core's heap (the trainers have a wasm module, and a heap, of their own): makes ~4 MB
 * Embeddings tables until the heap refuses one (a RangeError, checked); pushes them onto
 * `fillers` and returns it. What is left is smaller than one table.
 */
export async function fillCoreHeap(a, fillers = []) {
  const dim = 500;
  const row = Array.from({ length: dim }, (_, i) => (i % 7) - 3).join(' ');
  const text = Array.from({ length: 2000 }, (_, w) => `w${w} ${row}`).join('\n');
  const source = await a.loadEmbeddings(text);
  const bytes = source.toBinary();
  source.delete();
  for (;;) {
    try {
      fillers.push(a.embeddingsFromBinary(bytes));
    } catch (error) {
      assert.ok(error instanceof RangeError, String(error));
      return fillers;
    }
  }
}
