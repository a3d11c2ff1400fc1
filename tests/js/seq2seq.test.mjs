// The Seq2SeqTrainer API through the built package: tiny trainings,
// determinism, checkpoints, the attention matrix's shape and rows, and errors.
// (Gradient checks and the NumPy forward reference are in tests/cpp/test_seq2seq.cpp;
// speed is measured by scripts/bench-seq2seq.mjs, never asserted here.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();
const tiny = { task: 'reverse', hidden: 12, embedding: 6, batch: 8, learningRate: 0.01 };

function rowSums(m) {
  return Array.from({ length: m.rows }, (_, r) => m.row(r).reduce((x, y) => x + y, 0));
}

test('defaults: the dates task with luong-general attention', () => {
  const t = new a.Seq2SeqTrainer({ seed: 0 });
  try {
    assert.deepEqual(Object.keys(t.options), [
      'task',
      'attention',
      'hidden',
      'embedding',
      'batch',
      'learningRate',
      'seed',
    ]);
    assert.deepEqual(t.options, {
      task: 'dates',
      attention: 'luong-general',
      hidden: 64,
      embedding: 32,
      batch: 32,
      learningRate: 0.005,
      seed: 0,
    });
    assert.equal(t.steps, 0);
    assert.equal(t.heldOutSize, 1000);
    assert.equal(t.maxInputLength, 40);
    const { input, target } = t.sample();
    assert.match(target, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(input.length > 0 && input.length <= 40);
  } finally {
    t.delete();
  }
});

test('same seed gives identical losses and weights; another seed differs', () => {
  const run = (seed) => {
    const t = new a.Seq2SeqTrainer({ ...tiny, seed });
    try {
      return { losses: [t.train(3).loss, t.train(3).loss], bytes: t.save() };
    } finally {
      t.delete();
    }
  };
  const first = run(7);
  const again = run(7);
  const other = run(8);
  assert.deepEqual(again.losses, first.losses);
  assert.deepEqual(again.bytes, first.bytes);
  assert.notDeepEqual(other.losses, first.losses);
});

test('training lowers the loss and learns to reverse digit strings, with an anti-diagonal attention', () => {
  const t = new a.Seq2SeqTrainer({
    task: 'reverse',
    attention: 'luong-dot',
    hidden: 24,
    embedding: 8,
    batch: 16,
    learningRate: 0.02,
    seed: 1,
  });
  try {
    const start = t.train(5).loss;
    let loss = start;
    for (let i = 0; i < 8; i++) loss = t.train(25).loss;
    assert.ok(loss < 0.5 * start, `loss ${loss} vs ${start} at the start`);
    assert.equal(t.steps, 205);
    const accuracy = t.evaluate(100);
    assert.ok(accuracy >= 0 && accuracy <= 1);
    // Writing the k-th output digit, the decoder looks hardest at input position n-1-k.
    const r = t.translate('1234567');
    assert.equal(r.output, '7654321');
    const peaks = Array.from({ length: r.attention.rows }, (_, k) => {
      const row = Array.from(r.attention.row(k));
      return row.indexOf(Math.max(...row));
    });
    assert.deepEqual(peaks, [6, 5, 4, 3, 2, 1, 0]);
    // evaluate() agrees with translating held-out examples one by one.
    let correct = 0;
    for (let i = 0; i < 30; i++) {
      const { input, target } = t.sample();
      const { output } = t.translate(input);
      if (output === target) correct++;
      assert.ok(output.length <= 12);
    }
    assert.ok(correct > 0, `reversed none of 30 held-out strings (held-out accuracy ${accuracy})`);
  } finally {
    t.delete();
  }
});

test('translate: attention is (output length x input length) with rows summing to 1', () => {
  for (const attention of ['bahdanau', 'luong-dot', 'luong-general', 'luong-concat']) {
    const t = new a.Seq2SeqTrainer({ attention, hidden: 8, embedding: 4, batch: 4, seed: 2 });
    try {
      t.train(2);
      const input = 'Saturday 21/11/26';
      const r = t.translate(input);
      assert.equal(typeof r.output, 'string');
      assert.ok(r.output.length <= 10);
      assert.equal(r.attention.rows, r.output.length);
      assert.equal(r.attention.cols, input.length);
      for (const s of rowSums(r.attention)) assert.ok(Math.abs(s - 1) < 1e-12, `${attention}: row sum ${s}`);
      assert.ok(r.attention.data.every((w) => w >= 0 && w <= 1));
      assert.equal(r.encoderOutputs.rows, input.length);
      assert.equal(r.encoderOutputs.cols, 8);
      assert.equal(r.decoderStates.rows, r.output.length);
      assert.deepEqual(t.translate(input), r); // deterministic, no hidden state
    } finally {
      t.delete();
    }
  }
});

test('translate: scores, whose row softmax is attention (luong-dot: hₜ·sⱼ), and p(yₜ) whose largest is the emitted character', () => {
  for (const attention of ['luong-dot', 'luong-general', 'bahdanau']) {
    const t = new a.Seq2SeqTrainer({ attention, hidden: 8, embedding: 4, batch: 4, seed: 5 });
    try {
      t.train(3);
      const input = '21 Nov 2026';
      const r = t.translate(input);
      assert.ok(r.output.length > 0, `${attention}: this seed emits characters`);
      assert.equal(r.scores.rows, r.output.length);
      assert.equal(r.scores.cols, input.length);
      for (let i = 0; i < r.scores.rows; i++) {
        // softmax of the scores, written out here (not the library's softmax)
        const row = r.scores.row(i);
        const m = Math.max(...row);
        const e = row.map((x) => Math.exp(x - m));
        const sum = e.reduce((x, y) => x + y, 0);
        e.forEach((x, j) => assert.ok(Math.abs(x / sum - r.attention.get(i, j)) < 1e-12, `${attention} (${i}, ${j})`));
        if (attention === 'luong-dot') {
          for (let j = 0; j < input.length; j++) {
            const h = r.decoderStates.row(i);
            const s = r.encoderOutputs.row(j);
            const dot = h.reduce((acc, x, k) => acc + x * s[k], 0);
            assert.ok(Math.abs(dot - r.scores.get(i, j)) < 1e-12, `dot score (${i}, ${j})`);
          }
        }
      }
      assert.equal(r.probabilities.rows, r.output.length);
      assert.equal(r.probabilities.cols, 2 + t.outputAlphabet.length);
      assert.equal(t.outputAlphabet, '0123456789-');
      for (let i = 0; i < r.probabilities.rows; i++) {
        const p = Array.from(r.probabilities.row(i));
        assert.ok(Math.abs(p.reduce((x, y) => x + y, 0) - 1) < 1e-12);
        const best = p.indexOf(Math.max(...p));
        assert.equal(best >= 2 ? t.outputAlphabet[best - 2] : '?', Array.from(r.output)[i]);
      }
    } finally {
      t.delete();
    }
  }
});

test('save/load round trip: magic, version, same translations, training continues', () => {
  const t = new a.Seq2SeqTrainer({ ...tiny, attention: 'luong-concat', seed: 5 });
  try {
    t.train(10);
    const bytes = t.save();
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'A2S2');
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true), 1);
    const u = a.Seq2SeqTrainer.load(bytes);
    try {
      assert.deepEqual(u.options, t.options);
      assert.equal(u.steps, 10);
      assert.deepEqual(u.save(), bytes);
      assert.equal(u.translate('1234567').output, t.translate('1234567').output);
      const v = a.Seq2SeqTrainer.load(bytes.buffer.slice(0));
      assert.deepEqual(v.sample(), u.sample());
      v.delete();
      assert.ok(Number.isFinite(u.train(2).loss));
      assert.equal(u.steps, 12);
    } finally {
      u.delete();
    }
  } finally {
    t.delete();
  }
});

test('corrupt checkpoints are rejected with a clear RangeError', () => {
  const t = new a.Seq2SeqTrainer({ ...tiny, seed: 3 });
  const bytes = t.save();
  t.delete();
  const flip = (i) => {
    const copy = bytes.slice();
    copy[i] ^= 0xff;
    return copy;
  };
  const cases = [
    [flip(0), /wrong magic number/],
    [flip(4), /version \d+ is not supported/],
    [flip(bytes.length >> 1), /checksum mismatch/],
    [bytes.slice(0, bytes.length - 7), /checksum mismatch|truncated|size/],
    [bytes.slice(0, 5), /only 5 bytes/],
    [new Uint8Array(64), /wrong magic number/],
  ];
  for (const [data, pattern] of cases) {
    assert.throws(
      () => a.Seq2SeqTrainer.load(data),
      (e) =>
        e instanceof RangeError &&
        /^Seq2SeqTrainer\.load: not a valid seq2seq checkpoint: /.test(e.message) &&
        pattern.test(e.message),
    );
  }
  assert.throws(() => a.Seq2SeqTrainer.load(new Uint8Array(0)), /Seq2SeqTrainer\.load: bytes is empty/);
  assert.throws(() => a.Seq2SeqTrainer.load('A2S2'), TypeError);
  assert.throws(() => a.Seq2SeqTrainer.load([65, 50, 83, 50]), TypeError);
});

test('bad options give TypeError/RangeError naming the option', () => {
  const cases = [
    [{ task: 'french' }, RangeError, /task must be one of 'dates', 'reverse', 'sort', got 'french'/],
    [{ attention: 'luong' }, RangeError, /attention must be one of/],
    [{ attention: 3 }, TypeError, /attention must be a string/],
    [{ hidden: 0 }, RangeError, /hidden must be an integer in \[1, 256\], got 0/],
    [{ hidden: 2.5 }, RangeError, /hidden/],
    [{ batch: '32' }, TypeError, /batch must be a number/],
    [{ learningRate: 0 }, RangeError, /learningRate must be in \(0, 1\]/],
    [{ learningRate: NaN }, RangeError, /learningRate/],
    [{ seed: -1 }, RangeError, /seed must be an integer in \[0, 4294967295\]/],
    [{ hiden: 64 }, TypeError, /unknown option 'hiden'/],
    [{ hiden: 64 }, TypeError, /\(known: task, attention, hidden, embedding, batch, learningRate, seed\)$/],
    [null, TypeError, /options must be a plain object/],
    ['dates', TypeError, /options must be a plain object/],
  ];
  for (const [options, ErrorClass, pattern] of cases) {
    assert.throws(
      () => new a.Seq2SeqTrainer(options),
      (e) => e instanceof ErrorClass && /^Seq2SeqTrainer: /.test(e.message) && pattern.test(e.message),
    );
  }
});

test('bad inputs: unknown characters, empty, over-long, wrong type, bad counts', () => {
  const t = new a.Seq2SeqTrainer({ hidden: 8, embedding: 4, batch: 4, seed: 4 });
  try {
    assert.throws(() => t.translate(''), { name: 'RangeError', message: 'Seq2SeqTrainer.translate: input is empty' });
    assert.throws(() => t.translate('1'.repeat(41)), /input has 41 characters but the dates task allows at most 40/);
    assert.throws(() => t.translate('21 nov; 2026'), /input has ";" at position 6, which the dates task does not know/);
    assert.throws(() => t.translate('21 névembre 2026'), /input has "é" at position 4/);
    assert.throws(() => t.translate(20261121), TypeError);
    assert.throws(() => t.train(0), /steps must be an integer in \[1, 100000\], got 0/);
    // One call's work is bounded (the largest options would otherwise block a thread for days).
    const defaults = new a.Seq2SeqTrainer();
    assert.throws(() => defaults.train(6251), {
      name: 'RangeError',
      message:
        'Seq2SeqTrainer.train: steps = 6251 with batch 32, hidden 64 and embedding 32 is more work than one call ' +
        'may do (at most 6250 steps with these options); train in a loop of shorter calls',
    });
    // The largest sizes with the largest batch one step may take (tests/js/boundary-trainer-limits.test.mjs).
    const largest = new a.Seq2SeqTrainer({ batch: 99, hidden: 256, embedding: 256 });
    assert.throws(() => largest.train(100000), /is more work than one call may do \(at most 98 steps/);
    assert.ok(Number.isFinite(largest.train(1).loss));
    defaults.delete();
    largest.delete();
    assert.throws(() => t.train(1.5), RangeError);
    assert.throws(() => t.evaluate(1001), /n must be an integer in \[1, 1000\], got 1001/);
    // The trainer keeps working after errors.
    assert.equal(typeof t.translate('21 nov 2026').output, 'string');
  } finally {
    t.delete();
  }
  const r = new a.Seq2SeqTrainer({ task: 'reverse', hidden: 4, embedding: 2, batch: 2 });
  assert.throws(
    () => r.translate('12a'),
    /"a" at position 2, which the reverse task does not know \(allowed: 0123456789\)/,
  );
  assert.throws(() => r.translate('1234567890123'), /at most 12/);
  r.delete();
});

test('a deleted trainer throws; delete() twice is safe; memory does not grow', () => {
  const t = new a.Seq2SeqTrainer({ ...tiny });
  t.delete();
  t.delete();
  assert.throws(() => t.train(1), {
    name: 'TypeError',
    message: 'Seq2SeqTrainer.train: this Seq2SeqTrainer was deleted',
  });
  assert.throws(() => t.translate('12'), /deleted/);
  assert.throws(() => t.steps, /deleted/);
  // Create/train/save/delete many times: the heap stays the same size.
  const cycle = () => {
    const u = new a.Seq2SeqTrainer({ ...tiny, hidden: 8 });
    u.train(1);
    u.translate('123');
    a.Seq2SeqTrainer.load(u.save()).delete();
    u.delete();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = a.memoryBytes();
  for (let i = 0; i < 40; i++) cycle();
  assert.equal(a.memoryBytes(), before);
});

test('the shipped checkpoint (web/assets) loads and gets >= 99% exact match on 500 held-out dates', () => {
  const base64 = readFileSync(new URL('../../web/assets/seq2seq-dates.b64.txt', import.meta.url), 'utf8');
  const t = a.Seq2SeqTrainer.load(Buffer.from(base64.trim(), 'base64'));
  try {
    assert.equal(t.options.task, 'dates');
    assert.equal(t.options.attention, 'luong-general');
    const accuracy = t.evaluate(500);
    assert.ok(accuracy >= 0.99, `held-out exact match ${accuracy}`);
    const r = t.translate('Saturday 21/11/26');
    assert.equal(r.output, '2026-11-21');
    // The alignment is meaningful: the year digits "26" get most weight from the input's "26".
    const row = Array.from(r.attention.row(2)); // the "2" of "26" in the output "2026"
    const best = row.indexOf(Math.max(...row));
    assert.ok(best >= 15, `output 3 attends most to input position ${best} of "Saturday 21/11/26"`);
  } finally {
    t.delete();
  }
});
