// The TransformerTrainer API through the built package: options and typed
// errors, determinism, the three uses' maps (shapes, causal zeros, padding,
// rows summing to 1), checkpoints and corrupt ones, lifetime, and the shipped
// dates checkpoint reaching >= 99% held-out exact match after a fixed number of
// steps. (Gradient checks and the NumPy forward reference are in
// tests/cpp/test_transformer.cpp; speed is measured by scripts/bench-transformer.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { CHECKPOINT_CHUNK, MAX_CHECKPOINT_STEPS } from '../../scripts/train-transformer-checkpoint.mjs';

const a = await loadAttention();
const tiny = { task: 'reverse', layers: 1, heads: 2, dModel: 8, dFF: 16, batch: 4 };

function rowSums(m) {
  return Array.from({ length: m.rows }, (_, r) => m.row(r).reduce((x, y) => x + y, 0));
}

function assertRowsSumToOne(m, what) {
  for (const [r, sum] of rowSums(m).entries()) assert.ok(Math.abs(sum - 1) < 1e-12, `${what} row ${r} sums to ${sum}`);
}

test('defaults: dates, 2 + 2 layers, 4 heads, d_model 32, warm-up schedule', () => {
  const t = new a.TransformerTrainer();
  try {
    assert.deepEqual(t.options, {
      task: 'dates',
      layers: 2,
      heads: 4,
      dModel: 32,
      dFF: 64,
      batch: 32,
      schedule: 'warmup',
      learningRate: 1,
      warmup: 200,
      labelSmoothing: 0,
      seed: 0,
    });
    assert.equal(t.steps, 0);
    assert.equal(t.heldOutSize, 1000);
    assert.equal(t.maxInputLength, 40);
    assert.ok(t.inputAlphabet.includes('N'));
    assert.equal(t.parameterCount, 45901);
    // The paper's schedule: d_model^-0.5 min(step^-0.5, step warmup^-1.5), peak at the warm-up.
    assert.ok(Math.abs(t.learningRateAt(200) - 32 ** -0.5 * 200 ** -0.5) < 1e-17);
    assert.ok(t.learningRateAt(100) < t.learningRateAt(200) && t.learningRateAt(800) < t.learningRateAt(200));
    const { input, target } = t.sample();
    assert.match(target, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(input.length > 0 && input.length <= 40);
  } finally {
    t.delete();
  }
});

test('same options give identical losses bit for bit; another seed differs', () => {
  const run = (seed) => {
    const t = new a.TransformerTrainer({ ...tiny, seed });
    try {
      return { losses: [...t.train(3).losses, ...t.train(2).losses], bytes: t.save() };
    } finally {
      t.delete();
    }
  };
  const first = run(7);
  assert.equal(first.losses.length, 5);
  assert.deepEqual(run(7), first);
  assert.notDeepEqual(run(8).losses, first.losses);
});

test('translate: every layer and head of the three uses, causal decoder, rows summing to 1', () => {
  const t = new a.TransformerTrainer({ layers: 2, heads: 4, dModel: 16, dFF: 16, batch: 8 });
  try {
    t.train(3);
    const input = '21 Nov 2026';
    const r = t.translate(input);
    assert.equal(typeof r.output, 'string');
    const n = input.length;
    const m = r.output.length + 1;
    for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
      assert.equal(r[use].length, 2, `${use}: one entry per layer`);
      for (const layer of r[use]) assert.equal(layer.length, 4, `${use}: one Matrix per head`);
    }
    for (let l = 0; l < 2; l++) {
      for (let h = 0; h < 4; h++) {
        const enc = r.encoderSelf[l][h];
        const dec = r.decoderSelf[l][h];
        const cross = r.cross[l][h];
        assert.deepEqual([enc.rows, enc.cols], [n, n]);
        assert.deepEqual([dec.rows, dec.cols], [m, m]);
        assert.deepEqual([cross.rows, cross.cols], [m, n]);
        assertRowsSumToOne(enc, `encoderSelf[${l}][${h}]`);
        assertRowsSumToOne(dec, `decoderSelf[${l}][${h}]`);
        assertRowsSumToOne(cross, `cross[${l}][${h}]`);
        for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) assert.equal(dec.get(i, j), 0);
        assert.equal(dec.get(0, 0), 1);
      }
    }
    // Padding: a short input's maps cover exactly its own characters.
    const short = t.translate('1/2/99');
    assert.equal(short.encoderSelf[0][0].cols, 6);
    assert.equal(short.cross[1][3].cols, 6);
    // Results are copies owned by JS.
    r.cross[0][0].data[0] = 42;
    assert.notEqual(t.translate(input).cross[0][0].data[0], 42);
  } finally {
    t.delete();
  }
});

test('translate: the queries and keys returned give every map as softmax(q·k/√d_k) (JS reference, 1e-12)', () => {
  const t = new a.TransformerTrainer({ layers: 2, heads: 4, dModel: 16, dFF: 16, batch: 8 });
  try {
    t.train(3);
    const input = '3 May 1999';
    const r = t.translate(input);
    const dk = 4;
    for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
      for (let l = 0; l < 2; l++) {
        const [Q, K] = [r.queries[use][l], r.keys[use][l]];
        assert.deepEqual([Q.cols, K.cols], [16, 16], `${use}[${l}]: dModel columns`);
        for (let h = 0; h < 4; h++) {
          const map = r[use][l][h];
          assert.deepEqual([Q.rows, K.rows], [map.rows, map.cols], `${use}[${l}]: one row per query and per key`);
          let worst = 0;
          for (let i = 0; i < map.rows; i++) {
            const open = use === 'decoderSelf' ? i + 1 : map.cols; // causal: keys 0..i
            const s = Array.from({ length: open }, (_, j) => {
              let dot = 0;
              for (let c = h * dk; c < (h + 1) * dk; c++) dot += Q.get(i, c) * K.get(j, c);
              return dot / Math.sqrt(dk);
            });
            const top = Math.max(...s);
            const e = s.map((x) => Math.exp(x - top));
            const sum = e.reduce((x, y) => x + y, 0);
            for (let j = 0; j < map.cols; j++)
              worst = Math.max(worst, Math.abs((j < open ? e[j] / sum : 0) - map.get(i, j)));
          }
          assert.ok(worst < 1e-12, `${use}[${l}][${h}]: largest difference ${worst}`);
        }
      }
    }
  } finally {
    t.delete();
  }
});

test("translate: each projection's x, W and b give its queries and keys, q = x·W + b (JS float64 reference, 1e-12)", () => {
  const t = new a.TransformerTrainer({ layers: 2, heads: 4, dModel: 16, dFF: 16, batch: 8 });
  try {
    t.train(3);
    const r = t.translate('3 May 1999');
    const worstOf = (x, W, b, y) => {
      assert.deepEqual([x.rows, x.cols, W.rows, W.cols, b.rows, b.cols], [y.rows, 16, 16, 16, 1, 16]);
      let worst = 0;
      for (let i = 0; i < x.rows; i++)
        for (let c = 0; c < W.cols; c++) {
          let sum = b.get(0, c);
          for (let k = 0; k < x.cols; k++) sum += x.get(i, k) * W.get(k, c);
          worst = Math.max(worst, Math.abs(sum - y.get(i, c)));
        }
      return worst;
    };
    for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
      for (let l = 0; l < 2; l++) {
        const q = worstOf(r.queryInputs[use][l], r.queryWeights[use][l], r.queryBiases[use][l], r.queries[use][l]);
        const k = worstOf(r.keyInputs[use][l], r.keyWeights[use][l], r.keyBiases[use][l], r.keys[use][l]);
        assert.ok(q < 1e-12 && k < 1e-12, `${use}[${l}]: largest differences ${q}, ${k}`);
      }
    }
    // Cross-attention's keys read the encoder's output: the same rows in every layer, one per input character.
    assert.equal(r.keyInputs.cross[0].rows, '3 May 1999'.length);
    assert.deepEqual(Array.from(r.keyInputs.cross[0].data), Array.from(r.keyInputs.cross[1].data));
    // A layer's two projections differ (W_q is not W_k), and the weights are copies the caller owns.
    assert.notDeepEqual(Array.from(r.queryWeights.cross[1].data), Array.from(r.keyWeights.cross[1].data));
    const before = r.queryWeights.cross[1].get(0, 0);
    r.queryWeights.cross[1].data[0] = before + 1;
    assert.equal(t.translate('3 May 1999').queryWeights.cross[1].get(0, 0), before);
    // They are the model's as it was: training on changes the next translation's, not this one's.
    t.train(2);
    assert.notEqual(t.translate('3 May 1999').queryWeights.cross[1].get(0, 0), before);
  } finally {
    t.delete();
  }
});

test('positionalEncoding: the sinusoids of Vaswani et al. (JS Math reference, 1e-12), one row per position', () => {
  const t = new a.TransformerTrainer({ ...tiny, task: 'dates', dModel: 6 });
  try {
    const pe = t.positionalEncoding();
    assert.equal(pe.cols, 6);
    // dates: inputs up to maxInputLength characters, outputs 10 + the end token.
    assert.equal(pe.rows, Math.max(t.maxInputLength, 11));
    for (let p = 0; p < pe.rows; p++) {
      for (let i = 0; i < 6; i += 2) {
        const angle = p / 10000 ** (i / 6);
        assert.ok(Math.abs(pe.get(p, i) - Math.sin(angle)) < 1e-12, `PE(${p}, ${i})`);
        assert.ok(Math.abs(pe.get(p, i + 1) - Math.cos(angle)) < 1e-12, `PE(${p}, ${i + 1})`);
      }
    }
  } finally {
    t.delete();
  }
  assert.throws(() => t.positionalEncoding(), /TypeError: TransformerTrainer\.positionalEncoding.*deleted/s);
});

test('save/load round trip: same maps, same step count, training continues identically', () => {
  const t = new a.TransformerTrainer({ ...tiny, seed: 3 });
  try {
    t.train(4);
    const bytes = t.save();
    assert.deepEqual([...bytes.slice(0, 4)].map((c) => String.fromCharCode(c)).join(''), 'A2TF');
    assert.equal(new DataView(bytes.buffer).getUint32(4, true), 1);
    const copy = a.TransformerTrainer.load(bytes);
    const again = a.TransformerTrainer.load(bytes.buffer.slice(0));
    try {
      assert.equal(copy.steps, 4);
      assert.deepEqual(copy.options, t.options);
      assert.deepEqual(copy.save(), bytes);
      assert.deepEqual(copy.translate('12345'), again.translate('12345'));
      assert.deepEqual(copy.train(2), again.train(2));
    } finally {
      copy.delete();
      again.delete();
    }
  } finally {
    t.delete();
  }
});

test('corrupt checkpoints (magic, version, size, checksum) are rejected with a RangeError', () => {
  const t = new a.TransformerTrainer(tiny);
  const bytes = t.save();
  t.delete();
  const rejects = (b, why) =>
    assert.throws(
      () => a.TransformerTrainer.load(b),
      (e) => e instanceof RangeError && e.message.startsWith('TransformerTrainer.load: ') && why.test(e.message),
    );
  const magic = bytes.slice();
  magic[1] = 0x41;
  rejects(magic, /wrong magic number/);
  const version = bytes.slice();
  version[4] = 2;
  rejects(version, /version 2 is not supported/);
  rejects(bytes.slice(0, bytes.length - 10), /checksum mismatch/);
  rejects(bytes.slice(0, 6), /only 6 bytes/);
  const flipped = bytes.slice();
  flipped[40] ^= 0x10;
  rejects(flipped, /checksum mismatch/);
  rejects(new Uint8Array(0), /bytes is empty/);
  // A seq2seq checkpoint is not a Transformer checkpoint.
  const s = new a.Seq2SeqTrainer({ hidden: 4, embedding: 2, batch: 2 });
  rejects(s.save(), /wrong magic number/);
  s.delete();
  assert.throws(() => a.TransformerTrainer.load('A2TF'), TypeError);
  // The module keeps working.
  const ok = a.TransformerTrainer.load(bytes);
  assert.equal(ok.steps, 0);
  ok.delete();
});

test('bad options: TypeError for unknown options and wrong types, RangeError for values, naming the option', () => {
  const throws = (options, ErrorClass, pattern) =>
    assert.throws(
      () => new a.TransformerTrainer(options),
      (e) => e instanceof ErrorClass && e.message.startsWith('TransformerTrainer: ') && pattern.test(e.message),
    );
  throws({ dmodel: 32 }, TypeError, /unknown option 'dmodel'/);
  // The options in their documented order, in the message and in .options.
  const order = 'task, layers, heads, dModel, dFF, batch, schedule, learningRate, warmup, labelSmoothing, seed';
  throws({ dmodel: 32 }, TypeError, new RegExp(`\\(known: ${order}\\)$`));
  const t = new a.TransformerTrainer(tiny);
  assert.equal(Object.keys(t.options).join(', '), order);
  t.delete();
  throws({ heads: '4' }, TypeError, /heads must be a number, got a string/);
  throws({ task: 3 }, TypeError, /task must be a string/);
  throws({ labelSmoothing: null }, TypeError, /labelSmoothing must be a number/);
  throws('dates', TypeError, /options must be a plain object/);
  throws({ heads: 3 }, RangeError, /heads = 3 must divide dModel = 32/);
  throws({ layers: 0 }, RangeError, /layers must be an integer in \[1, 6\], got 0/);
  throws({ dModel: 31, heads: 1 }, RangeError, /dModel must be even/);
  throws({ dFF: 2.5 }, RangeError, /dFF must be an integer/);
  throws({ batch: 2 ** 40 }, RangeError, /batch must be an integer/);
  throws({ schedule: 'cosine' }, RangeError, /schedule must be one of 'warmup', 'constant', got 'cosine'/);
  throws({ learningRate: 0 }, RangeError, /learningRate must be in \(0, 10\], got 0/);
  throws({ learningRate: NaN }, RangeError, /learningRate must be in \(0, 10\], got NaN/);
  throws({ labelSmoothing: 1 }, RangeError, /labelSmoothing must be in \[0, 1\), got 1/);
  throws({ warmup: 0 }, RangeError, /warmup must be an integer in \[1, 100000\]/);
  throws({ task: 'Sort' }, RangeError, /task must be one of 'dates', 'reverse', 'sort', got 'Sort'/);
  throws({ seed: -1 }, RangeError, /seed must be an integer in \[0, 4294967295\]/);
});

test('bad calls: steps, n, input characters and length, wrong types; a deleted trainer throws', () => {
  const t = new a.TransformerTrainer(tiny);
  assert.throws(() => t.train(0), /TransformerTrainer\.train: steps must be an integer in \[1, 100000\], got 0/);
  assert.throws(() => t.train('1'), TypeError);
  // One call's work is bounded: the largest options would otherwise block a thread for days.
  // (batch 10: the largest one step may take at these sizes, see boundary-trainer-limits.test.mjs)
  const largest = new a.TransformerTrainer({ layers: 6, heads: 16, dModel: 256, dFF: 1024, batch: 10 });
  assert.throws(() => largest.train(100000), {
    name: 'RangeError',
    message:
      'TransformerTrainer.train: steps = 100000 with batch 10, layers 6, heads 16, dModel 256 and dFF 1024 is more work ' +
      'than one call may do (at most 131 steps with these options); train in a loop of shorter calls',
  });
  largest.delete();
  const defaults = new a.TransformerTrainer();
  assert.throws(() => defaults.train(7813), /at most 7812 steps with these options/);
  defaults.delete();
  assert.throws(() => t.evaluate(1001), RangeError);
  assert.throws(() => t.evaluate(0), /n must be an integer in \[1, 1000\]/);
  assert.throws(() => t.translate(12), TypeError);
  assert.throws(
    () => t.translate(''),
    (e) => e instanceof RangeError && /input is empty/.test(e.message),
  );
  assert.throws(
    () => t.translate('12a'),
    (e) =>
      e instanceof RangeError && /input has 'a' at position 2, which the reverse task does not know/.test(e.message),
  );
  assert.throws(() => t.translate('1'.repeat(13)), /input has 13 characters but the reverse task allows at most 12/);
  assert.throws(() => t.learningRateAt(0), RangeError);
  assert.equal(t.translate('123').encoderSelf[0][0].rows, 3); // still working
  t.delete();
  t.delete();
  assert.equal(t.deleted, true);
  assert.throws(() => t.train(1), /TransformerTrainer\.train: this TransformerTrainer was deleted/);
  assert.throws(() => t.options, TypeError);
});

test(`the shipped dates checkpoint (default options, seed 0, at most ${MAX_CHECKPOINT_STEPS} steps) gets >= 99% exact match on all 1000 held-out dates`, () => {
  // scripts/train-transformer-checkpoint.mjs trains the defaults in chunks of
  // CHECKPOINT_CHUNK steps until the reloaded checkpoint reaches 99%; the full
  // training is measured in scripts/bench-transformer.mjs, not repeated here.
  const base64 = readFileSync(new URL('../../web/assets/transformer-dates.b64.txt', import.meta.url), 'utf8');
  const t = a.TransformerTrainer.load(Buffer.from(base64.trim(), 'base64'));
  try {
    const defaults = new a.TransformerTrainer();
    assert.deepEqual(t.options, defaults.options);
    defaults.delete();
    assert.ok(t.steps > 0 && t.steps <= MAX_CHECKPOINT_STEPS && t.steps % CHECKPOINT_CHUNK === 0, `steps ${t.steps}`);
    const accuracy = t.evaluate(1000);
    assert.ok(accuracy >= 0.99, `held-out exact match ${accuracy}`);
    assert.equal(t.translate('21 November 2026').output, '2026-11-21');
    assert.equal(t.translate('Sat, 3 Jan 1970').output, '1970-01-03');
    // The decoder's maps of a trained model are still causal and normalised.
    const r = t.translate('the 5th of march 1999');
    assert.equal(r.output, '1999-03-05');
    for (const layer of r.decoderSelf) for (const head of layer) assert.equal(head.get(0, 1), 0);
    for (const layer of r.cross) for (const head of layer) assertRowsSumToOne(head, 'cross');
  } finally {
    t.delete();
  }
});
