// The layer ops explain their own cells (web/src/site/explain/): linear with
// bias, tanh / ReLU / GELU, layer norm, embedding lookup, the sinusoidal
// positional encoding and a tanh RNN cell. Where the API computes the op
// (TrainableAttention's projections, concatAttention's tanh layer, the
// Transformer's positional encoding, RandomState embeddings) its numbers are
// explained; layer norm, ReLU, GELU and the RNN cell have no API call of their
// own and are computed here from their definitions. The arithmetic shown must
// give the cell's value within the printed precision (story-arithmetic.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { OPS } from '../../web/src/site/explain/ops.js';
import { cells, draw as drawWith, names } from './explain-inputs.js';
import { assertArithmetic, halfUnit, lastStep, valueOf } from './story-arithmetic.js';

const a = await loadAttention();

const draw = (seed, shapes) => drawWith(a, seed, shapes);
const matrix = (rows, cols, f) => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, (_, i) => f(Math.floor(i / cols), i % cols)),
});
const get = (m, r, c) => m.data[r * m.cols + c];

test('linear: TrainableAttention’s projected queries are x Wᵀ + b (PyTorch layout), every cell', () => {
  const [queries, keys] = draw(3, [
    [3, 5],
    [4, 5],
  ]);
  const attention = a.createTrainableAttention({ inFeatures: 5, outFeatures: 3, seed: 2 });
  const result = attention.forward(queries, keys);
  const W = attention.params.Wq.weight.transpose(); // (in × out)
  const b = { rows: 1, cols: 3, data: attention.params.Wq.bias };
  const args = {
    out: result.queries,
    inputs: { x: queries, W, b },
    names: names({ out: { symbol: 'q′' }, x: { symbol: 'Q', row: 'q' }, W: { symbol: 'W_q' }, b: { symbol: 'b_q' } }),
  };
  for (const [r, c] of cells(result.queries)) {
    const story = OPS.linear.explain(args, r, c);
    assert.ok(
      story.text.startsWith(`q′[${r + 1}][${c + 1}] = q${r + 1} · W_q[:, ${c + 1}] + b_q[${c + 1}] = `),
      story.text,
    );
    assertArithmetic(story.text, result.queries.get(r, c));
    assert.deepEqual(
      story.sources.map((s) => s.input),
      ['x', 'W', 'b'],
    );
    assert.deepEqual(story.sources[2].cells, [[0, c]]);
  }
});

test('tanh: concatAttention’s activations are tanh of inputs · W1', () => {
  const [H, s, W1, w2] = draw(4, [
    [4, 3],
    [1, 3],
    [6, 5],
    [5, 1],
  ]);
  const r = a.concatAttention(H, s, W1, w2);
  const pre = a.matmul(r.inputs, W1);
  const args = { out: r.activations, inputs: { x: pre }, names: names({ out: { symbol: 'a' }, x: { symbol: 'z' } }) };
  for (const [i, k] of cells(r.activations)) {
    const story = OPS.tanh.explain(args, i, k);
    assert.ok(story.text.startsWith(`a[${i + 1}][${k + 1}] = tanh(z[${i + 1}][${k + 1}]) = tanh(`));
    assertArithmetic(story.text, r.activations.get(i, k));
    assert.deepEqual(story.sources, [{ input: 'x', cells: [[i, k]] }]);
  }
});

test('ReLU and GELU (exact, with erf) of random numbers', () => {
  const [x] = draw(5, [[3, 4]]);
  const erf = (v) => {
    // Simpson's rule on 2/√π ∫ e^(−t²) with 2000 intervals: far below the printed 4 digits.
    const n = 2000;
    const h = v / n;
    let s = 1 + Math.exp(-v * v);
    for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * Math.exp(-((i * h) ** 2));
    return ((2 / Math.sqrt(Math.PI)) * s * h) / 3;
  };
  const relu = matrix(3, 4, (r, c) => Math.max(0, get(x, r, c)));
  const gelu = matrix(3, 4, (r, c) => 0.5 * get(x, r, c) * (1 + erf(get(x, r, c) / Math.SQRT2)));
  for (const [op, out] of [
    ['relu', relu],
    ['gelu', gelu],
  ]) {
    const args = { out, inputs: { x }, names: names({ out: { symbol: 'y' }, x: { symbol: 'x' } }) };
    for (const [r, c] of cells(out)) assertArithmetic(OPS[op].explain(args, r, c).text, get(out, r, c));
  }
});

test('layer norm: (x − μ)/√(σ² + ε)·γ + β over each row, with the row’s mean and variance shown', () => {
  const [x, gamma, beta] = draw(6, [
    [3, 6],
    [1, 6],
    [1, 6],
  ]);
  const stats = (r) => {
    const row = Array.from(x.row(r));
    const mean = row.reduce((s, v) => s + v, 0) / row.length;
    return [mean, row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length];
  };
  const out = matrix(3, 6, (r, c) => {
    const [mean, variance] = stats(r);
    return ((get(x, r, c) - mean) / Math.sqrt(variance + 1e-5)) * gamma.data[c] + beta.data[c];
  });
  const args = {
    out,
    inputs: { x, gamma, beta },
    names: names({ out: { symbol: 'y' }, x: { symbol: 'x', row: 'x' }, gamma: { symbol: 'γ' }, beta: { symbol: 'β' } }),
  };
  for (const [r, c] of cells(out)) {
    const story = OPS.layerNorm.explain(args, r, c);
    const [mean, variance] = stats(r);
    const [, m, v] = /^μ = mean of x\d+ = (\S+), σ² = (\S+);/.exec(story.text);
    assert.ok(Math.abs(valueOf(m) - mean) <= halfUnit(m.replace('−', '')), `${m} vs ${mean}`);
    assert.ok(Math.abs(valueOf(v) - variance) <= halfUnit(v), `${v} vs ${variance}`);
    assertArithmetic(story.text, get(out, r, c));
    assert.equal(story.sources[0].cells.length, 6);
  }
});

test('embedding: X = E[ids] from the chapter’s RandomState draw names the vocabulary row', async () => {
  const M = await import('../../web/src/site/chapters/transformer/model.js');
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  const inputs = M.drawInputs(a, tokens, 4, 3);
  const args = {
    out: inputs.X,
    inputs: { E: inputs.E },
    params: { ids: inputs.ids },
    names: names({ out: { symbol: 'X', rowLabels: tokens }, E: { symbol: 'E' } }),
  };
  const story = OPS.embedding.explain(args, 4, 2); // the second "the": row 1 of E
  assert.equal(story.text, `X[5][3] (the) = E[1][3] = ${lastStep(story.text).printed}: token 5 is row 1 of E`);
  assert.equal(valueOf(lastStep(story.text).printed), Number(inputs.E.get(0, 2).toPrecision(4)));
  assert.deepEqual(story.sources, [{ input: 'E', cells: [[0, 2]] }]);
});

test('positional encoding: every cell of TransformerTrainer.positionalEncoding()', () => {
  const trainer = new a.TransformerTrainer({ task: 'reverse', layers: 1, heads: 2, dModel: 8, dFF: 8, batch: 2 });
  try {
    const pe = trainer.positionalEncoding();
    const args = { out: pe, inputs: {}, params: { dModel: 8 }, names: names({ out: { symbol: 'PE' } }) };
    for (const [r, c] of cells(pe)) {
      const story = OPS.positional.explain(args, r, c);
      const fn = c % 2 ? 'cos' : 'sin';
      assert.ok(
        story.text.startsWith(`PE[${r + 1}][${c + 1}] (position ${r}) = ${fn}(${r} / 10000^(${c - (c % 2)}/8)) = `),
      );
      assertArithmetic(story.text, pe.get(r, c));
      // the exact angle too: "sin(t / 10000^(2i/d))" from integers only
      const exact = story.text.split(' = ')[1];
      assertArithmetic(`${exact} = ${lastStep(story.text).printed}`.replace(/^/, 'x = '), pe.get(r, c));
      assert.deepEqual(story.sources, []);
    }
  } finally {
    trainer.delete();
  }
});

test('RNN cell: h_t = tanh(x_t Wx + h_(t−1) Wh + b), reading the previous row of its own output', () => {
  const [x, Wx, Wh, b] = draw(8, [
    [4, 3],
    [3, 2],
    [2, 2],
    [1, 2],
  ]);
  const out = { rows: 4, cols: 2, data: new Float64Array(8) };
  for (let t = 0; t < 4; t++) {
    for (let c = 0; c < 2; c++) {
      let s = b.data[c];
      for (let k = 0; k < 3; k++) s += get(x, t, k) * get(Wx, k, c);
      if (t > 0) for (let k = 0; k < 2; k++) s += get(out, t - 1, k) * get(Wh, k, c);
      out.data[t * 2 + c] = Math.tanh(s);
    }
  }
  const args = {
    out,
    inputs: { x, Wx, Wh, b },
    names: names({
      out: { symbol: 'h', row: 'h' },
      x: { symbol: 'x', row: 'x' },
      Wx: { symbol: 'Wx' },
      Wh: { symbol: 'Wh' },
      b: { symbol: 'b' },
    }),
  };
  for (const [t, c] of cells(out)) {
    const story = OPS.rnn.explain(args, t, c);
    assertArithmetic(story.text, get(out, t, c));
    const pre = story.text.split(' = ')[2]; // tanh(products + … + b), every product printed
    assertArithmetic(`x = ${pre} = ${lastStep(story.text).printed}`, get(out, t, c));
    assert.deepEqual(
      story.sources.map((s) => s.input),
      t > 0 ? ['x', 'Wx', 'Wh', 'b', 'out'] : ['x', 'Wx', 'Wh', 'b'],
    );
  }
});

test('additive score: createAdditiveAttention’s scores are w_s · tanh(q′_i + k′_j) + b_s, every pair', () => {
  const [queries, keys] = draw(16, [
    [3, 5],
    [4, 5],
  ]);
  const layer = a.createAdditiveAttention({ inFeatures: 5, hiddenFeatures: 4, seed: 3 });
  const r = layer.forward(queries, keys, keys); // r.queries = W_q q + b_q, r.keys likewise, r.scores
  const w = { rows: 1, cols: 4, data: layer.params.Ws.weight.data };
  const b = { rows: 1, cols: 1, data: layer.params.Ws.bias };
  const args = {
    out: r.scores,
    inputs: { q: r.queries, k: r.keys, w, b },
    names: names({
      out: { symbol: 's' },
      q: { symbol: 'q′', row: 'q′' },
      k: { symbol: 'k′', row: 'k′' },
      w: { symbol: 'w_s' },
      b: { symbol: 'b_s' },
    }),
  };
  for (const [i, j] of cells(r.scores)) {
    const story = OPS.additiveScore.explain(args, i, j);
    assert.ok(
      story.text.startsWith(`s[${i + 1}][${j + 1}] = w_s · tanh(q′${i + 1} + k′${j + 1}) + b_s = `),
      story.text,
    );
    assertArithmetic(story.text, r.scores.get(i, j));
    assert.deepEqual(story.sources[1], { input: 'k', cells: [0, 1, 2, 3].map((c) => [j, c]) });
  }
});

test('transpose and cosine: an embedding figure read by rows; q·k / (‖q‖·‖k‖) of unit rows', () => {
  const [q, k] = draw(17, [
    [3, 4],
    [2, 4],
  ]);
  const qt = q.transpose();
  const t = { out: q, inputs: { x: qt }, names: names({ out: { symbol: 'q' }, x: { symbol: 'E' } }) };
  const story = OPS.transpose.explain(t, 2, 1);
  assert.equal(story.text, `q[3][2] = E[2][3] = ${lastStep(story.text).printed}`);
  assert.equal(valueOf(lastStep(story.text).printed), Number(qt.get(1, 2).toPrecision(4)));
  assert.deepEqual(story.sources, [{ input: 'x', cells: [[1, 2]] }]);
  const norm = (m, r) => Math.sqrt(a.dot(m.row(r), m.row(r)));
  const unit = (m) =>
    new a.Matrix(
      m.rows,
      m.cols,
      Float64Array.from(m.data, (x, i) => x / norm(m, Math.floor(i / m.cols))),
    );
  const cos = a.attentionScores(unit(q), unit(k));
  const args = {
    out: cos,
    inputs: { x: a.attentionScores(q, k) },
    params: { rowNorms: [0, 1, 2].map((r) => norm(q, r)), colNorms: [0, 1].map((r) => norm(k, r)) },
    names: names({ out: { symbol: 'cos' }, x: { symbol: 'q·k' } }),
  };
  for (const [i, j] of cells(cos)) assertArithmetic(OPS.cosine.explain(args, i, j).text, cos.get(i, j));
});
