// The attention ops explain their own cells (web/src/site/explain/): for random
// inputs from the NumPy-exact RandomState, every output cell of the API's own
// results is explained with arithmetic that, evaluated from the printed numbers
// (interval arithmetic, tests/js/story-arithmetic.js), gives the cell's value
// within the printed precision, and names the input cells it read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { OPS } from '../../web/src/site/explain/ops.js';
import { cells, draw as drawWith, names } from './explain-inputs.js';
import { assertArithmetic, lastStep, valueOf } from './story-arithmetic.js';

const a = await loadAttention();

const draw = (seed, shapes) => drawWith(a, seed, shapes);

const sourceOf = (story, input) => story.sources.find((s) => s.input === input)?.cells;

test('matmul: a · b and a · bᵀ (scores), every cell of the API result, with its row and column', () => {
  for (const seed of [1, 2, 3]) {
    const [A, B, K] = draw(seed, [
      [3, 4],
      [4, 5],
      [6, 4],
    ]);
    const out = a.matmul(A, B);
    const args = {
      out,
      inputs: { a: A, b: B },
      names: names({ out: { symbol: 'Y' }, a: { symbol: 'A', row: 'a' }, b: { symbol: 'B' } }),
    };
    for (const [r, c] of cells(out)) {
      const story = OPS.matmul.explain(args, r, c);
      assert.ok(story.text.startsWith(`Y[${r + 1}][${c + 1}] = a${r + 1} · B[:, ${c + 1}] = `), story.text);
      assertArithmetic(story.text, out.get(r, c));
      assert.deepEqual(
        sourceOf(story, 'a'),
        [0, 1, 2, 3].map((k) => [r, k]),
      );
      assert.deepEqual(
        sourceOf(story, 'b'),
        [0, 1, 2, 3].map((k) => [k, c]),
      );
    }
    const scores = a.attentionScores(A, K); // A Kᵀ
    const t = {
      out: scores,
      inputs: { a: A, b: K },
      params: { transposeB: true },
      names: names({
        out: { symbol: 'S', rowLabels: ['x', 'y', 'z'] },
        a: { symbol: 'Q', row: 'q' },
        b: { symbol: 'K', row: 'k' },
      }),
    };
    for (const [r, c] of cells(scores)) {
      const story = OPS.matmul.explain(t, r, c);
      assert.ok(story.text.startsWith(`S[${r + 1}][${c + 1}] (${'xyz'[r]}) = q${r + 1} · k${c + 1} = `), story.text);
      assertArithmetic(story.text, scores.get(r, c));
      assert.deepEqual(
        sourceOf(story, 'b'),
        [0, 1, 2, 3].map((k) => [c, k]),
      );
    }
  }
});

test('matmul: a long dot product is folded (first three and last products), as before', () => {
  const [A, B] = draw(4, [
    [1, 64],
    [64, 1],
  ]);
  const out = a.matmul(A, B);
  const args = {
    out,
    inputs: { a: A, b: B },
    names: names({ out: { symbol: 'Y' }, a: { symbol: 'A' }, b: { symbol: 'B' } }),
  };
  const story = OPS.matmul.explain(args, 0, 0);
  assert.match(story.text, / \+ … \+ .* \(64 products\) = /);
  assert.equal(sourceOf(story, 'a').length, 64);
});

test('scale: S / √d_k equals attentionScores(…, { scaled: true }) within the printed digits', () => {
  const [Q, K] = draw(5, [
    [4, 8],
    [5, 8],
  ]);
  const raw = a.attentionScores(Q, K);
  const scaled = a.attentionScores(Q, K, { scaled: true });
  const args = {
    out: scaled,
    inputs: { x: raw },
    params: { dk: 8 },
    names: names({ out: { symbol: 'Ŝ' }, x: { symbol: 'S' } }),
  };
  for (const [r, c] of cells(scaled)) {
    const story = OPS.scale.explain(args, r, c);
    assert.ok(story.text.includes(`= S[${r + 1}][${c + 1}] / √8 = `), story.text);
    assertArithmetic(story.text, scaled.get(r, c));
    assert.deepEqual(story.sources, [{ input: 'x', cells: [[r, c]] }]);
  }
  const byFactor = {
    ...args,
    params: { factor: 0.5 },
    out: { rows: raw.rows, cols: raw.cols, data: raw.data.map((x) => x * 0.5) },
  };
  assertArithmetic(OPS.scale.explain(byFactor, 1, 2).text, raw.get(1, 2) * 0.5);
});

/** A 0/1 mask with the last key masked and, in row 0, every key but the first. */
function maskFor(n, m) {
  const data = new Float64Array(n * m).fill(1);
  for (let i = 0; i < n; i++) data[i * m + m - 1] = 0;
  for (let j = 1; j < m; j++) data[j] = 0;
  return { rows: n, cols: m, data };
}

test('mask: a masked score is −∞ by its mask cell, a kept one is the score', () => {
  const [Q, K] = draw(6, [
    [3, 4],
    [4, 4],
  ]);
  const raw = a.attentionScores(Q, K);
  const mask = maskFor(3, 4);
  const out = { rows: 3, cols: 4, data: raw.data.map((x, i) => (mask.data[i] ? x : -Infinity)) };
  const args = {
    out,
    inputs: { x: raw, mask },
    names: names({ out: { symbol: 'S′' }, x: { symbol: 'S' }, mask: { symbol: 'M' } }),
  };
  assert.equal(OPS.mask.explain(args, 1, 3).text, 'S′[2][4] = −∞: the mask cell M[2][4] is 0 (masked)');
  const kept = OPS.mask.explain(args, 1, 0).text;
  assert.match(kept, /^S′\[2\]\[1\] = S\[2\]\[1\] = −?[\d.]+: the mask cell M\[2\]\[1\] is 1 \(kept\)$/);
  assert.equal(lastStep(kept).printed.replace('−', '-'), String(Number(raw.get(1, 0).toPrecision(4))));
});

test('softmax: weights of scaledDotProductAttention (scaled inside, masked) from the raw scores', () => {
  for (const seed of [7, 8]) {
    const [Q, K, V] = draw(seed, [
      [4, 8],
      [5, 8],
      [5, 3],
    ]);
    const raw = a.attentionScores(Q, K);
    const mask = maskFor(4, 5);
    const { weights } = a.scaledDotProductAttention(Q, K, V, { mask });
    const args = {
      out: weights,
      inputs: { x: raw, mask },
      params: { dk: 8 },
      names: names({ out: { symbol: 'α' }, x: { symbol: 'S' }, mask: { symbol: 'M' } }),
    };
    for (const [i, j] of cells(weights)) {
      const story = OPS.softmax.explain(args, i, j);
      assert.deepEqual(sourceOf(story, 'mask'), [[i, j]]);
      assert.deepEqual(
        sourceOf(story, 'x'),
        [0, 1, 2, 3, 4].map((c) => [i, c]),
      );
      if (mask.data[i * 5 + j] === 0) {
        assert.equal(story.text, `α[${i + 1}][${j + 1}] = 0: the mask cell M[${i + 1}][${j + 1}] is 0 (masked)`);
        assert.equal(weights.get(i, j), 0);
        continue;
      }
      const [body, note] = story.text.split('; ');
      assert.equal(note, i === 0 ? '4 masked keys left out' : '1 masked key left out');
      assert.ok(body.endsWith(`, over row ${i + 1} of S/√8`), body);
      assertArithmetic(body.replace(/, over row.*$/, ''), weights.get(i, j), story.text);
    }
  }
});

test('softmax: without a mask or scaling, every score is in the sum (api.softmax of a row)', () => {
  const [x] = draw(9, [[2, 6]]);
  const out = { rows: 2, cols: 6, data: Float64Array.from([...a.softmax(x.row(0)), ...a.softmax(x.row(1))]) };
  const args = { out, inputs: { x }, names: names({ out: { symbol: 'w' }, x: { symbol: 'e' } }) };
  for (const [i, j] of cells(out)) {
    const story = OPS.softmax.explain(args, i, j);
    assert.equal((story.text.match(/e\^|\b1\b/g) ?? []).length >= 6, true);
    assertArithmetic(story.text, out.data[i * 6 + j]);
  }
});

test('weighted sum: the attention output is weights · V, row by column', () => {
  const [Q, K, V] = draw(10, [
    [3, 4],
    [4, 4],
    [4, 2],
  ]);
  const { weights, output } = a.scaledDotProductAttention(Q, K, V);
  const args = {
    out: output,
    inputs: { weights, values: V },
    names: names({ out: { symbol: 'out' }, weights: { symbol: 'α' }, values: { symbol: 'V' } }),
  };
  for (const [i, k] of cells(output)) {
    const story = OPS.weightedSum.explain(args, i, k);
    assert.ok(story.text.startsWith(`out[${i + 1}][${k + 1}] = Σ_j α[${i + 1}][j] · V[j][${k + 1}] = `));
    assertArithmetic(story.text, output.get(i, k));
    assert.deepEqual(
      sourceOf(story, 'values'),
      [0, 1, 2, 3].map((j) => [j, k]),
    );
  }
});

test('split and concat: a head block is a copy of its columns; the concatenation reads each head', async () => {
  const M = await import('../../web/src/site/chapters/transformer/model.js');
  const [Q] = draw(11, [[3, 6]]);
  const heads = [0, 1, 2].map((h) => M.columns(a, Q, 2 * h, 2));
  const whole = M.concatColumns(a, heads);
  assert.deepEqual(Array.from(whole.data), Array.from(Q.data));
  const split = {
    out: heads[1],
    inputs: { x: Q },
    params: { c0: 2, width: 2 },
    names: names({ out: { symbol: 'Q₂' }, x: { symbol: 'Q' } }),
  };
  const s = OPS.split.explain(split, 2, 1);
  assert.equal(s.text, `Q₂[3][2] = Q[3][4] = ${lastStep(s.text).printed} (columns 3 to 4 of Q)`);
  assert.equal(Number(lastStep(s.text).printed.replace('−', '-')), Number(Q.get(2, 3).toPrecision(4)));
  assert.deepEqual(s.sources, [{ input: 'x', cells: [[2, 3]] }]);
  const cat = {
    out: whole,
    inputs: { part1: heads[0], part2: heads[1], part3: heads[2] },
    names: names({
      out: { symbol: 'concat' },
      part1: { symbol: 'h1' },
      part2: { symbol: 'h2' },
      part3: { symbol: 'h3' },
    }),
  };
  for (const [r, c] of cells(whole)) {
    const story = OPS.concat.explain(cat, r, c);
    assert.deepEqual(story.sources, [{ input: `part${Math.floor(c / 2) + 1}`, cells: [[r, c % 2]] }]);
    assert.ok(
      story.text.startsWith(`concat[${r + 1}][${c + 1}] = h${Math.floor(c / 2) + 1}[${r + 1}][${(c % 2) + 1}] = `),
    );
  }
  assert.throws(() => OPS.concat.explain(cat, 0, 6), /concat: column 6 is past the 6 columns/);
});

test('scale by: api.scaleRows gives α_i · h_i, one weight per row (or per column, transposed)', () => {
  const [H] = draw(12, [[4, 3]]);
  const weights = { rows: 1, cols: 4, data: a.softmax([0.5, -1, 2, 0.1]) };
  const out = a.scaleRows(weights.data, H); // (4 x 3): row i is weights[i] · H[i]
  const rows = {
    out,
    inputs: { weights, x: H },
    params: { along: 'rows' },
    names: names({ out: { symbol: 'αh' }, weights: { symbol: 'α', vector: true }, x: { symbol: 'H' } }),
  };
  for (const [i, k] of cells(out)) {
    const story = OPS.scaleBy.explain(rows, i, k);
    assert.ok(story.text.startsWith(`αh[${i + 1}][${k + 1}] = α${i + 1} · H[${i + 1}][${k + 1}] = `), story.text);
    assertArithmetic(story.text, out.get(i, k));
    assert.deepEqual(story.sources, [
      { input: 'weights', cells: [[0, i]] },
      { input: 'x', cells: [[i, k]] },
    ]);
  }
  const t = a.scaleRows(weights.data, H).transpose(); // (3 x 4): column i is weights[i] · H[i]
  const columns = { ...rows, out: t, inputs: { weights, x: H.transpose() }, params: { along: 'cols' } };
  for (const [k, i] of cells(t)) assertArithmetic(OPS.scaleBy.explain(columns, k, i).text, t.get(k, i));
});

test('matmul with transposeA: a column vector against the columns of b (e = hᵀ H), vectors named e1, h', () => {
  const [h, H] = draw(13, [
    [3, 1],
    [3, 4],
  ]);
  const scores = a.dotScores(h.data, H.transpose()); // h · column s of H
  const out = { rows: 1, cols: 4, data: scores };
  const args = {
    out,
    inputs: { a: h, b: H },
    params: { transposeA: true },
    names: names({
      out: { symbol: 'e', vector: true },
      a: { symbol: 'h', vector: true },
      b: { symbol: 'H', col: 'h̄' },
    }),
  };
  for (let s = 0; s < 4; s++) {
    const story = OPS.matmul.explain(args, 0, s);
    assert.ok(story.text.startsWith(`e${s + 1} = h · h̄${s + 1} = `), story.text);
    assertArithmetic(story.text, scores[s]);
    assert.deepEqual(story.sources[0].cells, [
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
  }
});

test('concat repeats a one-row part down every row ([h_i; s]); stack puts one-row parts under each other', () => {
  const [H, s, W1, w2] = draw(14, [
    [3, 2],
    [1, 2],
    [4, 3],
    [3, 1],
  ]);
  const r = a.concatAttention(H, s, W1, w2); // r.inputs: row i is [h_i; s]
  const args = {
    out: r.inputs,
    inputs: { part1: H, part2: s },
    names: names({ out: { symbol: 'X' }, part1: { symbol: 'H' }, part2: { symbol: 's', vector: true } }),
  };
  for (const [i, j] of cells(r.inputs)) {
    const story = OPS.concat.explain(args, i, j);
    const [input, cell] = j < 2 ? ['part1', [i, j]] : ['part2', [0, j - 2]];
    assert.deepEqual(story.sources, [{ input, cells: [cell] }]);
    const source = j < 2 ? H.get(i, j) : s.get(0, j - 2);
    assert.equal(valueOf(lastStep(story.text).printed), Number(source.toPrecision(4)), story.text);
    assert.equal(r.inputs.get(i, j), source);
  }
  const dot = { rows: 1, cols: 3, data: a.softmax(a.dotScores(s.data, H)) };
  const add = { rows: 1, cols: 3, data: r.weights };
  const both = { rows: 2, cols: 3, data: Float64Array.from([...r.weights, ...dot.data]) };
  const stack = {
    out: both,
    inputs: { part1: add, part2: dot },
    names: names({
      out: { symbol: 'both' },
      part1: { symbol: 'α', vector: true },
      part2: { symbol: 'β', vector: true },
    }),
  };
  const story = OPS.stack.explain(stack, 1, 2);
  assert.equal(story.text, `both[2][3] = β3 = ${lastStep(story.text).printed} (row 2 is β)`);
  assert.equal(valueOf(lastStep(story.text).printed), Number(dot.data[2].toPrecision(4)));
  assert.deepEqual(OPS.stack.focus(stack, 1, 2), { input: 'part2', cell: [0, 2] });
});

test('softmax of a column of scores into a row of weights (concatAttention’s scores and weights)', () => {
  const [H, s, W1, w2] = draw(15, [
    [5, 2],
    [1, 2],
    [4, 3],
    [3, 1],
  ]);
  const r = a.concatAttention(H, s, W1, w2);
  const args = {
    out: { rows: 1, cols: 5, data: r.weights },
    inputs: { x: { rows: 5, cols: 1, data: r.scores } },
    names: names({ out: { symbol: 'α', vector: true }, x: { symbol: 'e', vector: true } }),
  };
  for (let i = 0; i < 5; i++) {
    const story = OPS.softmax.explain(args, 0, i);
    assert.ok(story.text.startsWith(`α${i + 1} = `), story.text);
    assertArithmetic(story.text, r.weights[i]);
    assert.deepEqual(story.sources, [{ input: 'x', cells: [0, 1, 2, 3, 4].map((j) => [j, 0]) }]);
    assert.deepEqual(OPS.softmax.focus(args, 0, i), { input: 'x', cell: [i, 0] });
  }
});
