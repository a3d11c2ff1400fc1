// The trace of named tensors (web/src/site/explain/trace.js): recording stores
// references and computes nothing; explain() dispatches to the op with the
// tensors' names; storyForFigures() maps sources to figures, following tensors
// no figure draws back to the ones that do, and tells a hidden score's story
// after its weight's. Also: the story evaluator itself rejects wrong arithmetic.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { draw as drawWith } from './explain-inputs.js';
import { assertArithmetic, evaluate } from './story-arithmetic.js';

const a = await loadAttention();

const draw = (seed, shapes) => drawWith(a, seed, shapes);

test('the story evaluator: right arithmetic passes, a wrong sum or a wrong printed result fails', () => {
  assert.deepEqual(evaluate('5·59 + 1·2 + 20·5').map(Math.round), [397, 397]);
  assertArithmetic('e2 = h · h̄2 = 5·59 + 1·2 + 20·5 = 397', 397);
  assertArithmetic('α1 = e^(927 − 929) / (e^(927 − 929) + 1 + e^(397 − 929)) = 0.1192', 0.11920292202211755);
  assert.throws(() => assertArithmetic('e = 5·59 + 1·2 = 397', 397), /gives/);
  assert.throws(() => assertArithmetic('e = 5·59 + 1·2 + 20·5 = 398', 397), /gives|prints/);
  assert.throws(() => assertArithmetic('w = 0.3 / 2 = 0.1501', 0.15), /prints/);
  assert.throws(() => evaluate('1 + … + 2'), /cannot read/);
});

/** Columns c0 … c0 + width − 1 of m, as a new Matrix. */
function columnsOf(m, c0, width) {
  const out = new a.Matrix(m.rows, width);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < width; c++) out.data[r * width + c] = m.get(r, c0 + c);
  return out;
}

/** A two-head attention with every step recorded, as a chapter would. */
function recordAttention(trace, X, W, heads) {
  const d = W.cols;
  const dk = d / heads;
  const Q = a.matmul(X, W);
  trace.add({ name: 'X', value: X, symbol: 'X', row: 'x' });
  trace.add({ name: 'W', value: W, symbol: 'W' });
  trace.add({ name: 'Q', op: 'matmul', inputs: ['X', 'W'], value: Q, symbol: 'Q', row: 'q' });
  const computed = { lazy: 0 };
  for (let h = 0; h < heads; h++) {
    const block = () => columnsOf(Q, h * dk, dk);
    const lazyBlock = () => (computed.lazy++, block());
    trace.add({
      name: `Q${h}`,
      op: 'split',
      inputs: ['Q'],
      value: lazyBlock,
      symbol: `Q${h + 1}`,
      row: 'q',
      params: { c0: h * dk, width: dk },
    });
    trace.add({
      name: `S${h}`,
      op: 'matmul',
      inputs: [`Q${h}`, `Q${h}`],
      value: () => (computed.lazy++, a.attentionScores(trace.value(`Q${h}`), trace.value(`Q${h}`))),
      symbol: `S${h + 1}`,
      params: { transposeB: true },
    });
    const Qh = block(); // self-attention of the head's block (queries = keys = values)
    const { weights } = a.scaledDotProductAttention(Qh, Qh, Qh);
    trace.add({ name: `A${h}`, op: 'softmax', inputs: [`S${h}`], value: weights, symbol: `α${h + 1}`, params: { dk } });
  }
  return computed;
}

test('recording computes nothing; a hover computes what that story needs, once per recording', () => {
  const [X, W] = draw(1, [
    [3, 4],
    [4, 4],
  ]);
  const trace = new Trace();
  const computed = recordAttention(trace, X, W, 2);
  assert.equal(computed.lazy, 0, 'lazy tensors untouched at record time');
  const figures = { X: 'X figure', Q: 'Q figure', A1: 'head 2 figure' };
  const explain = storyForFigures(trace, figures);
  const story = explain('A1')(0, 2);
  assert.equal(computed.lazy, 2, 'the head block and its scores, computed on the hover');
  explain('A1')(1, 1);
  assert.equal(computed.lazy, 2, 'and kept until the next recording');
  // The weight's softmax, then its hidden score: q·k with the numbers.
  const [weight, score] = story.text.split('; ');
  assert.match(weight, /^α2\[1\]\[3\] = .* = [\d.]+, over row 1 of S2\/√2$/);
  assert.match(score, /^S2\[1\]\[3\] = q1 · q3 = .* = −?[\d.]+$/);
  assertArithmetic(score, trace.value('S1').get(0, 2));
  // Sources: no figure draws S2 or Q2, so the walk reaches Q's head-2 columns (3 and 4) of every row.
  assert.deepEqual(
    story.sources.map((s) => s.figure),
    ['Q figure'],
  );
  const cells = story.sources[0].cells.map(([r, c]) => `${r},${c}`).sort();
  assert.deepEqual(cells, ['0,2', '0,3', '1,2', '1,3', '2,2', '2,3']);
  // A figure's own tensor is explained with its direct sources: Q reads X (a figure) and W (none).
  const q = explain('Q')(1, 2);
  assert.match(q.text, /^Q\[2\]\[3\] = x2 · W\[:, 3\] = /);
  assert.deepEqual(q.sources, [{ figure: 'X figure', cells: [0, 1, 2, 3].map((k) => [1, k]) }]);
  assertArithmetic(q.text, trace.value('Q').get(1, 2));
});

test('explain() names source tensors; inputs and unknown names are refused by name', () => {
  const [X, W] = draw(2, [
    [2, 3],
    [3, 3],
  ]);
  const trace = new Trace();
  recordAttention(trace, X, W, 1);
  const story = trace.explain('Q', 0, 0);
  assert.deepEqual(
    story.sources.map((s) => s.tensor),
    ['X', 'W'],
  );
  assert.deepEqual(trace.explain('A0', 0, 1).focus, { tensor: 'S0', cell: [0, 1] });
  assert.throws(() => trace.explain('nope', 0, 0), /trace: no tensor named 'nope'/);
  assert.throws(() => trace.explain('X', 0, 0), /'X' is an input/);
  assert.equal(storyForFigures(trace, {})('X')(0, 0), null);
  assert.equal(storyForFigures(trace, {})('nope')(0, 0), null);
});

test('a new recording replaces the tensor and drops lazily computed values', () => {
  const [X, W, W2] = draw(3, [
    [2, 2],
    [2, 2],
    [2, 2],
  ]);
  const trace = new Trace();
  let calls = 0;
  trace.add({ name: 'X', value: X });
  trace.add({ name: 'W', value: W });
  trace.add({ name: 'Y', op: 'matmul', inputs: ['X', 'W'], value: () => (calls++, a.matmul(X, W)) });
  assertArithmetic(trace.explain('Y', 1, 1).text, a.matmul(X, W).get(1, 1));
  trace.add({ name: 'W', value: W2 });
  trace.add({ name: 'Y', op: 'matmul', inputs: ['X', 'W'], value: () => (calls++, a.matmul(X, W2)) });
  assertArithmetic(trace.explain('Y', 1, 1).text, a.matmul(X, W2).get(1, 1));
  assert.equal(calls, 2);
});
