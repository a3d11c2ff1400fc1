// The chapter "Open a real model" (web/src/site/chapters/model/model.js and
// its head trace, headMix) and its demo model (web/assets/gpt2-demo/, trained by
// tests/fixtures/make_gpt2_demo.py): the demo through openModel against the
// script's float64 NumPy forward pass of the same F16 weights (gpt2_demo.txt),
// its loss against the uniform baseline, and the pure helpers on hand-made input.
//
// Tolerances, |got - want| / max(1, |want|), float32 against float64: attention
// weights 1e-5, logits 2e-5, one head's q, k, v 2e-5 (measured maxima printed);
// a story's printed value within half its last printed digit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import {
  clampHead,
  demoFiles,
  FACTOR,
  findings,
  folderUrls,
  headMix,
  HOLDS_AT,
  meanWeightOn,
  modelFiles,
  byteText,
  pieceBytes,
  runSentence,
  SCHEMA,
  shapeOf,
  tokenLabels,
  TENSORS,
  tokenLabel,
} from '../../web/src/site/chapters/model/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';
import { halfUnit, valueOf } from './story-arithmetic.js';

const a = await loadAttention();
const ref = loadFixture('gpt2_demo.txt');
const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'assets', 'gpt2-demo');
const SENTENCES = ['the cat sat on the mat.', 'a small dog saw the red bird in the tree.', 'one two three four five'];

/** The demo's files as the chapter gets them from its data script (text and base64). */
function demoValue() {
  return {
    'config.json': readFileSync(join(DEMO, 'config.json'), 'utf8'),
    'tokenizer.json': readFileSync(join(DEMO, 'tokenizer.json'), 'utf8'),
    'model.safetensors': readFileSync(join(DEMO, 'model.safetensors')).toString('base64'),
  };
}
const demo = await a.openModel(demoFiles(demoValue()));
const { n_layer: L, n_head: H, vocab_size: V } = demo.config;

/** A {rows, cols, data} matrix from an array of rows. */
const matrix = (rows) => ({
  rows: rows.length,
  cols: rows[0].length,
  data: Float64Array.from(rows.flat()),
  get(i, j) {
    return this.data[i * this.cols + j];
  },
});
/** Row i puts all its weight on column f(i). */
const pointing = (T, f) =>
  matrix(Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j === f(i) ? 1 : 0))));
/** Row i spreads its weight evenly over columns 0..i (the causal baseline). */
const even = (T) =>
  matrix(Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i ? 1 / (i + 1) : 0))));

test('demo model: the tokenizer gives the training script’s ids; maps and logits match NumPy', () => {
  let worstMap = 0;
  let worstLogits = 0;
  SENTENCES.forEach((sentence, s) => {
    const r = demo.run(sentence, { logits: true });
    assert.deepEqual(r.ids, Array.from(ref.get(`s${s}.ids`).data), sentence);
    const T = r.ids.length;
    for (let l = 0; l < L; l++) {
      const want = ref.get(`s${s}.attention${l}`).data;
      for (let h = 0; h < H; h++) {
        const d = assertClose(r.attentions[l][h].data, want.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
          label: `${sentence} L${l} H${h}`,
        });
        worstMap = Math.max(worstMap, d);
      }
    }
    worstLogits = Math.max(worstLogits, assertClose(r.logits, ref.get(`s${s}.logits`).data, 2e-5, { label: 'logits' }));
  });
  console.log(`# demo vs NumPy: attention ${worstMap.toExponential(1)}, logits ${worstLogits.toExponential(1)}`);
});

test('demo model: explainHead’s q, k, v (layer 2, head 3) match NumPy', async () => {
  let worst = 0;
  for (const [s, sentence] of SENTENCES.entries()) {
    const e = await demo.explainHead(sentence, { layer: 1, head: 2 });
    for (const name of ['q', 'k', 'v'])
      worst = Math.max(worst, assertClose(e[name].data, ref.get(`s${s}.L1H2.${name}`).data, 2e-5, { label: name }));
  }
  console.log(`# demo q, k, v vs NumPy: ${worst.toExponential(1)}`);
});

test('demo model: its held-out loss through openModel is far below the uniform baseline ln(vocab)', () => {
  // Held-out text the model never trained on (a differently seeded sample of the same grammar),
  // in windows of n_positions tokens: the mean of −log p(next token) at every position.
  const held = Array.from(ref.get('held.ids').data);
  const T = demo.config.n_positions;
  let sum = 0;
  let n = 0;
  for (let w = 0; w + T <= held.length; w += T) {
    const window = held.slice(w, w + T);
    for (let t = 1; t < T; t++) {
      const { logits } = demo.runIds(window.slice(0, t), { logits: true, k: 1 });
      const max = Math.max(...logits);
      const logSum = Math.log(logits.reduce((s, x) => s + Math.exp(x - max), 0)) + max;
      sum += logSum - logits[window[t]];
      n++;
    }
  }
  const loss = sum / n;
  const baseline = Math.log(V);
  assert.ok(Math.abs(baseline - ref.get('loss.baseline').data[0]) < 1e-12);
  console.log(
    `# held-out loss ${loss.toFixed(3)} nats/token over ${n} tokens (script: ${ref.get('loss.held_out').data[0].toFixed(3)}) vs ln(${V}) = ${baseline.toFixed(3)}`,
  );
  assert.ok(loss < baseline - 2, `loss ${loss} not below ln(V) − 2 = ${baseline - 2}`);
});

test('the trace explains a weight of the demo head: q·k products sum to the score, whose softmax is the weight', async () => {
  const sentence = SENTENCES[1];
  const r = demo.run(sentence);
  const inputs = await demo.explainHead(sentence, { layer: 1, head: 2 });
  const weights = r.attentions[1][2];
  const trace = new Trace();
  const tokens = r.tokens.map(tokenLabel);
  const mix = headMix(a, trace, inputs, weights, tokens);
  // The value mix is weights · v (checked here in float64).
  for (let i = 0; i < mix.rows; i++)
    for (let c = 0; c < mix.cols; c++) {
      let want = 0;
      for (let j = 0; j < weights.cols; j++) want += weights.get(i, j) * inputs.v.get(j, c);
      assert.ok(Math.abs(mix.get(i, c) - want) < 1e-12);
    }
  // The scores the story writes out are q·k; their softmax over the row (/√d_k, causal) is the model's weight.
  const scores = trace.value('head.scores');
  const row = Array.from({ length: 5 }, (_, j) => {
    let dot = 0;
    for (let c = 0; c < 8; c++) dot += inputs.q.get(4, c) * inputs.k.get(j, c);
    assert.ok(Math.abs(scores.get(4, j) - dot) < 1e-12);
    return dot / Math.sqrt(8);
  });
  const sum = row.reduce((t, x) => t + Math.exp(x), 0);
  row.forEach((x, j) => assert.ok(Math.abs(Math.exp(x) / sum - weights.get(4, j)) < 1e-6));
  const figures = { [TENSORS.q]: {}, [TENSORS.k]: {}, [TENSORS.weights]: {}, [TENSORS.v]: {}, [TENSORS.mix]: {} };
  const story = storyForFigures(trace, figures)(TENSORS.weights)(4, 2);
  assert.match(
    story.text,
    /^weight\[5\]\[3\] .* = [0-9.]+, over row 5 of score\/√8; .*score\[5\]\[3\] .* = q5 .* · k3 .* = /,
  );
  assert.deepEqual(
    story.sources.map((s) => [Object.keys(figures).find((k) => figures[k] === s.figure), s.cells.length]).sort(),
    [
      [TENSORS.k, 8 * weights.cols], // the softmax's row of scores: every key (masked ones too), every column
      [TENSORS.q, 8], // query 5
    ],
  );
  // A masked weight says so.
  assert.match(storyForFigures(trace, figures)(TENSORS.weights)(1, 3).text, /= 0: .*masked/);
  // q, k, v are x·W + b: a cell of v outlines x's row and v's column of the head's q | k | v columns.
  const drawn = { ...figures, [TENSORS.x]: {}, [TENSORS.W]: {} };
  const cell = storyForFigures(trace, drawn)(TENSORS.v)(4, 2);
  assert.match(cell.text, /^V\[5\]\[3\] .* = x5 .* · W_v\[:, 3\] \+ b_v\[3\] = .* \(32 products\) \+ \S+ = \S+$/);
  const printed = valueOf(cell.text.slice(cell.text.lastIndexOf(' = ') + 3));
  assert.ok(Math.abs(printed - inputs.v.get(4, 2)) <= halfUnit(String(Math.abs(printed))) + 1e-12);
  const outlined = Object.fromEntries(
    cell.sources.map((s) => [Object.keys(drawn).find((k) => drawn[k] === s.figure), s.cells]),
  );
  assert.deepEqual(
    outlined[TENSORS.x],
    Array.from({ length: 32 }, (_, j) => [4, j]),
  );
  assert.deepEqual(
    [...outlined[TENSORS.W]].sort((p, q) => p[0] - q[0]),
    Array.from({ length: 32 }, (_, j) => [j, 2 * 8 + 2]),
  );
});

test('modelFiles: picks the model’s files by name; says which are missing', () => {
  const file = (name) => ({ name });
  const got = modelFiles([
    file('README.md'),
    file('config.json'),
    file('model.safetensors'),
    file('tokenizer.json'),
    file('vocab.json'),
  ]);
  assert.deepEqual(Object.keys(got).sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
  const pair = modelFiles([file('config.json'), file('model.safetensors'), file('vocab.json'), file('merges.txt')]);
  assert.deepEqual(Object.keys(pair).sort(), ['config.json', 'merges.txt', 'model.safetensors', 'vocab.json']);
  assert.throws(() => modelFiles([file('config.json'), file('vocab.json')]), {
    name: 'TypeError',
    message:
      'the model folder needs model.safetensors, tokenizer.json (or vocab.json and merges.txt, or a BERT’s vocab.txt); got config.json, vocab.json',
  });
  // A BERT folder: vocab.txt is its tokenizer; with tokenizer.json beside it, tokenizer.json wins.
  const bert = modelFiles([file('config.json'), file('model.safetensors'), file('vocab.txt'), file('vocab.json')]);
  assert.deepEqual(Object.keys(bert).sort(), ['config.json', 'model.safetensors', 'vocab.txt']);
  const both = modelFiles([file('config.json'), file('model.safetensors'), file('vocab.txt'), file('tokenizer.json')]);
  assert.deepEqual(Object.keys(both).sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
  assert.throws(() => modelFiles([]), { message: /needs config\.json, model\.safetensors, .*; got no files$/ });
});

test('folderUrls: model-src resolves against the page; another origin is refused', () => {
  const base = 'https://course.example/unit/3/page.html';
  assert.deepEqual(folderUrls('models/gpt2', base), {
    'config.json': 'https://course.example/unit/3/models/gpt2/config.json',
    'model.safetensors': 'https://course.example/unit/3/models/gpt2/model.safetensors',
    'tokenizer.json': 'https://course.example/unit/3/models/gpt2/tokenizer.json',
  });
  assert.equal(folderUrls('/m/', base)['config.json'], 'https://course.example/m/config.json');
  assert.throws(() => folderUrls('https://huggingface.co/gpt2/', base), {
    name: 'TypeError',
    message: `model-src must be a folder on this page's own origin (https://course.example); "https://huggingface.co/gpt2/" is on https://huggingface.co`,
  });
  assert.throws(() => folderUrls('//cdn.example/m/', base), { message: /own origin/ });
  // The page's own origin, not its base's: a <base href> elsewhere does not widen it.
  assert.throws(() => folderUrls('models/gpt2', 'https://cdn.example/', 'https://course.example'), {
    message: /own origin \(https:\/\/course\.example\); "models\/gpt2" is on https:\/\/cdn\.example/,
  });
});

test('folderUrls: a blob:, data: or file: model-src is a clear TypeError, not the browser URL error', () => {
  const base = 'https://course.example/unit/3/page.html';
  for (const [src, scheme] of [
    ['blob:https://course.example/1f0e7d56-1b4b-4b1e-9f4e-7c8a1b2c3d4e', 'blob:'],
    ['data:application/json,{}', 'data:'],
    ['file:///home/me/models/gpt2/', 'file:'],
    ['javascript:alert(1)', 'javascript:'],
  ])
    assert.throws(() => folderUrls(src, base), {
      name: 'TypeError',
      message: `model-src "${src}" is a ${scheme} URL; model-src must be an http(s) folder on this page's own origin (a file of your own opens with the file picker)`,
    });
});

test('runSentence: a message (no run) for empty text and for more tokens than n_positions', async () => {
  assert.match((await runSentence(demo, '')).message, /at least one token/);
  const long = 'one two three four five six seven eight nine ten '.repeat(4);
  const ids = demo.tokenizer.encode(long).ids.length;
  assert.ok(ids > 64);
  assert.equal(
    (await runSentence(demo, long)).message,
    `This text is ${ids} tokens; the model reads at most n_positions = 64. Shorten it to see its attention.`,
  );
  const r = await runSentence(demo, 'the cat');
  assert.equal(r.next.length, 8);
  assert.ok(r.next[0].p >= r.next[1].p);
});

test('meanWeightOn and findings: hand-made heads against the even-spread baseline', () => {
  const T = 5;
  const baseline = (1 / 2 + 1 / 3 + 1 / 4 + 1 / 5) / 4; // queries 2..5
  const previous = meanWeightOn(
    pointing(T, (i) => Math.max(0, i - 1)),
    (i) => (i >= 1 ? i - 1 : -1),
  );
  assert.deepEqual(previous, { value: 1, baseline, queries: 4 });
  const spread = meanWeightOn(even(T), (i) => (i >= 1 ? i - 1 : -1));
  assert.ok(Math.abs(spread.value - baseline) < 1e-15); // an even head is the baseline
  // Layer 1: an even head and a previous-token head; layer 2: a first-token head.
  const found = findings([
    [even(T), pointing(T, (i) => Math.max(0, i - 1))],
    [pointing(T, () => 0), even(T)],
  ]);
  assert.deepEqual(
    found.map((f) => [f.pattern.id, f.layer, f.head, f.value]),
    [
      ['previous', 0, 1, 1],
      ['first', 1, 0, 1],
    ],
  );
  assert.deepEqual(findings([[even(T)]]), []); // nothing holds: nothing is claimed
  assert.ok(HOLDS_AT > 0 && FACTOR > 1);
});

test('SCHEMA: defaults, clamping and malformed values fall back; clampHead fits the model', () => {
  const state = readState(SCHEMA, new URLSearchParams('ms=hello&ml=999&mh=-3&mm=evil'));
  const generation = { temperature: 0.8, topK: 40, topP: 0.95, maxTokens: 16, seed: 1 };
  assert.deepEqual(state, { sentence: 'hello', pair: '', layer: 95, head: 0, source: 'demo', ...generation });
  // Generation's options: clamped to their bounds; malformed ones fall back.
  const options = readState(SCHEMA, new URLSearchParams('gt=9&gk=-1&gp=0&gn=1000&gs=x'));
  assert.deepEqual(
    { temperature: options.temperature, topK: options.topK, topP: options.topP, maxTokens: options.maxTokens },
    { temperature: 2, topK: 0, topP: 0.01, maxTokens: 64 },
  );
  assert.equal(options.seed, 1);
  assert.deepEqual(clampHead({ layer: 95, head: 7 }, shapeOf(demo)), { layer: 1, head: 3 });
  assert.equal(tokenLabel(' the\n'), '·the↵');
});

test('tokenLabel: a token whose bytes are no whole character shows its bytes as ⟨F0⟩', async () => {
  // An emoji is 4 bytes (F0 9F 99 82); the demo's vocabulary cuts it into byte tokens.
  const text = ' 🙂';
  const r = demo.run(text);
  const labels = await tokenLabels(demo, text, r.tokens);
  assert.ok(
    r.tokens.some((t) => t.includes('\uFFFD')),
    `tokens ${JSON.stringify(r.tokens)}`,
  );
  assert.ok(
    labels.every((l) => !l.includes('\uFFFD')),
    `labels ${labels}`,
  );
  // Every byte of the text appears once, in order, across the labels.
  const shown = labels.join('').replace(/·/g, '⟨20⟩');
  const bytes = Array.from(new TextEncoder().encode(text), (b) => b.toString(16).toUpperCase());
  for (const b of bytes.filter((b) => b !== '20')) assert.ok(shown.includes(`⟨${b}⟩`), `${b} in ${shown}`);
  assert.equal(pieceBytes('Ġthe').join(','), '32,116,104,101');
  assert.equal(byteText([0xf0, 0x9f]), '⟨F0⟩⟨9F⟩');
  assert.equal(tokenLabel('\uFFFD'), '⟨?⟩', 'bytes unknown: still no U+FFFD');
});
