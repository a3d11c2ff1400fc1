// The chapter "A Transformer trained in your browser" names a head only when
// its measure clears two baselines by MARGIN (web/src/site/chapters/trained/claims.js):
// uniform attention (worked out by hand here) and the same model at
// initialisation. The shipped checkpoint names heads on four date formats; an
// untrained model names none, whether it is the baseline's own seed (the page
// after Reset) or other seeds. Also the snapshot memory of the training
// dashboard (bounded) and the sentence under the speed table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { atShape, MARGIN, measuredClaims, suggestion, uniformMap } from '../../web/src/site/chapters/trained/claims.js';
import {
  fieldAlignment,
  encoderPatterns,
  decoderPatterns,
  speedSentence,
} from '../../web/src/site/chapters/trained/model.js';
import { Snapshots } from '../../web/src/site/chapters/trained/snapshots.js';
import speed from '../../web/src/site/lesson-kit/training-speed.js';

const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b} (tolerance ${tol})`);
const plain = (m) => ({ rows: m.rows, cols: m.cols, data: m.data });
const maps = (r) => ({
  output: r.output,
  encoderSelf: r.encoderSelf.map((hs) => hs.map(plain)),
  decoderSelf: r.decoderSelf.map((hs) => hs.map(plain)),
  cross: r.cross.map((hs) => hs.map(plain)),
});

test('uniformMap: rows spread evenly over their visible keys (causal: the first i + 1)', () => {
  assert.deepEqual(Array.from(uniformMap(2, 4).data), [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25]);
  assert.deepEqual(Array.from(uniformMap(3, 3, true).data), [1, 0, 0, 0.5, 0.5, 0, 1 / 3, 1 / 3, 1 / 3]);
});

test('the uniform baselines, worked out by hand for "21 November 2026" → 2026-11-21', () => {
  const input = '21 November 2026';
  const output = '2026-11-21';
  // Cross: 16 input characters; year 4 wide (4 digits), month 8 wide (2 digits), day 2 wide (2 digits).
  close(fieldAlignment(uniformMap(11, 16), input, output), (4 * (4 / 16) + 2 * (8 / 16) + 2 * (2 / 16)) / 8);
  // Encoder: each of the 14 characters in a run keeps run length / 16 (2 + 8 + 4 characters).
  close(encoderPatterns(uniformMap(16, 16), input).ownRun, (2 * 2 + 8 * 8 + 4 * 4) / 16 / 14);
  // Decoder, causal: row t (1..10) sees t + 1 keys, so 1 / (t + 1) on the start token.
  const start = Array.from({ length: 10 }, (_, k) => 1 / (k + 2)).reduce((a, b) => a + b) / 10;
  close(decoderPatterns(uniformMap(11, 11, true), output).start, start);
});

test('atShape: an initial map read at another shape (its last row past its end, renormalised)', () => {
  const m = { rows: 2, cols: 2, data: [0.6, 0.4, 0.1, 0.9] };
  const out = atShape(m, 3, 3, true);
  // Row 0 sees key 0 only: 0.6 / 0.6. Row 1: its row 1 over keys 0, 1. Row 2: row 1 again, key 2 absent (0).
  assert.deepEqual(Array.from(out.data), [1, 0, 0, 0.1, 0.9, 0, 0.1, 0.9, 0]);
  const wide = atShape({ rows: 1, cols: 2, data: [0, 1] }, 1, 1);
  assert.deepEqual(Array.from(wide.data), [1]); // nothing left on key 0: uniform over what is visible
});

test('suggestion: never the input already typed', () => {
  assert.notEqual(suggestion('21 November 2026', 'dates'), '21 November 2026');
  assert.equal(suggestion('3 nov 1999', 'dates'), '21 November 2026');
});

test('the shipped checkpoint names heads; the same options untrained (and other seeds) name none', async () => {
  const a = await loadAttention();
  const base64 = readFileSync(new URL('../../web/assets/transformer-dates.b64.txt', import.meta.url), 'utf8').trim();
  const shipped = a.TransformerTrainer.load(Buffer.from(base64, 'base64'));
  const initial = new a.TransformerTrainer(shipped.options); // what the engine sends as the baseline
  const others = [1, 2, 3].map((seed) => new a.TransformerTrainer({ ...shipped.options, seed }));
  const rows = [];
  try {
    for (const input of ['21 November 2026', 'nov 3, 1999', 'Saturday 21/11/26', '2026 Nov 21st']) {
      const baseline = maps(initial.translate(input));
      const claims = measuredClaims(maps(shipped.translate(input)), baseline, input, 'dates');
      for (const c of claims) {
        rows.push(
          `${input} | ${c.id} | L${c.layer + 1}H${c.head + 1} ${c.value.toFixed(3)} | uniform ${c.uniform.toFixed(3)} | init ${c.init.toFixed(3)} | ${c.holds ? 'named' : '-'}`,
        );
        assert.equal(c.holds, c.value >= Math.max(c.uniform, c.init) + MARGIN);
      }
      const field = claims.find((c) => c.id === 'field');
      assert.ok(field?.holds, `${input}: the field alignment is named (${JSON.stringify(field)})`);
      // After Reset the page's model is the baseline itself: nothing clears it.
      const reset = measuredClaims(baseline, baseline, input, 'dates');
      assert.deepEqual(
        reset.filter((c) => c.holds),
        [],
        `${input}: a model at initialisation names a head`,
      );
      for (const other of others) {
        const r = other.translate(input);
        const random = measuredClaims(maps(r), baseline, input, 'dates').filter((c) => c.holds);
        rows.push(
          `${input} | seed ${other.options.seed} untrained names: ${random.map((c) => c.id).join(', ') || 'none'}`,
        );
        assert.deepEqual(random, [], `${input}: untrained seed ${other.options.seed} names ${JSON.stringify(random)}`);
      }
    }
  } finally {
    for (const t of [shipped, initial, ...others]) t.delete();
  }
  console.log(`# ${rows.join('\n# ')}`);
});

test('Snapshots: bounded; when full, every other older one goes (first and newest stay)', () => {
  const s = new Snapshots(4);
  for (const steps of [0, 10, 20, 30]) s.add({ steps });
  s.add({ steps: 30, again: true }); // a retranslation at the same step replaces it
  assert.equal(s.length, 4);
  assert.equal(s.at(3).again, true);
  s.add({ steps: 40 });
  assert.deepEqual(
    s.items.map((x) => x.steps),
    [0, 20, 40],
  );
  for (let k = 5; k < 100; k++) s.add({ steps: 10 * k });
  assert.ok(s.length <= 4 && s.at(0).steps === 0 && s.at(s.length - 1).steps === 990);
});

test('speedSentence: read from the measured numbers', () => {
  const text = speedSentence(speed);
  const dates = speed.results.filter((r) => r.task === 'dates');
  const [t, r] = [dates.find((x) => x.model === 'transformer'), dates.find((x) => x.model !== 'transformer')];
  const ratio = (Math.max(t.stepsToTarget, r.stepsToTarget) / Math.min(t.stepsToTarget, r.stepsToTarget)).toFixed(1);
  assert.ok(text.includes(`(${ratio}× fewer)`), text);
  assert.ok(
    text.includes(`${t.stepsPerSecondCpu.toFixed(1)}`) && text.includes(`${r.secondsToTargetCpu.toFixed(1)} s`),
    text,
  );
  assert.equal(text.match(/On /g).length, new Set(speed.results.map((x) => x.task)).size);
});
