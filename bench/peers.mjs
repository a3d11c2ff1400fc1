// `npm run bench`, part 2: attention-lab against the other wasm libraries, in
// ONE Node process, one thread each, on the same inputs:
//   attention-lab          the built package (dist/lib), float64 and float32 (when the build has it)
//   onnxruntime-web        wasm EP, 1 thread, the graphs in bench/onnx/ (bench/make_attention_onnx.py), float32 and float64
//   tfjs-backend-wasm      1 thread, float32, tf.matMul / tf.softmax
//   native Eigen           bench/native_bench.cpp -O3 -march=native, float64 and float32 (a child process timing itself)
//   plain JS loop          bench/lib/js-attention.mjs, float64
// Scaled dot-product attention n in {64, 256, 1024}, d = 64, and multi-head
// self-attention n = 512, d_model = 512, 8 heads. Every wasm peer gets JS typed
// arrays and returns JS typed arrays (copies in and out are timed). Times are
// medians of all samples taken in alternating rounds, one warm-up per round.
// Each output is compared with attention-lab float64 (max abs difference).
// Needs `npm run build`. Refuses every network access (bench/lib/offline.mjs).
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxAbsDiff, randomMatrix, toFloat32 } from './lib/data.mjs';
import { jsAttention } from './lib/js-attention.mjs';
import { forbidNetwork, networkAttempts } from './lib/offline.mjs';
import { median, samples } from './lib/timing.mjs';
import { buildNative } from './peers/native.mjs';
import { loadOnnxRuntime } from './peers/onnxruntime.mjs';
import { loadOurs } from './peers/ours.mjs';
import { loadTfjs } from './peers/tfjs.mjs';

forbidNetwork();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const D = 64;
const ROUNDS = 5;
const CASES = [
  { op: 'sdpa', n: 64, d: D, runs: 30 },
  { op: 'sdpa', n: 256, d: D, runs: 10 },
  { op: 'sdpa', n: 1024, d: D, runs: 5 },
  { op: 'mha', n: 512, dModel: 512, heads: 8, runs: 4 },
];
const caseName = (c) =>
  c.op === 'sdpa' ? `attention n=${c.n} d=${c.d}` : `multi-head n=${c.n} d_model=${c.dModel} h=${c.heads}`;

function inputs(c) {
  if (c.op === 'sdpa') {
    return {
      ...c,
      Q: randomMatrix(c.n, c.d, 1 + c.n),
      K: randomMatrix(c.n, c.d, 2 + c.n),
      V: randomMatrix(c.n, c.d, 3 + c.n),
    };
  }
  const s = 1 / Math.sqrt(c.dModel);
  const W = (seed) => {
    const m = randomMatrix(c.dModel, c.dModel, seed);
    m.data.forEach((v, i) => (m.data[i] = v * s));
    return m;
  };
  return { ...c, X: randomMatrix(c.n, c.dModel, 99), Wq: W(11), Wk: W(12), Wv: W(13), Wo: W(14) };
}
const inFloat32 = (x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v && v.data ? toFloat32(v) : v]));

const jsLoop = {
  label: 'plain JS loop float64',
  precision: 'float64',
  prepare: (op, x) => (op === 'sdpa' ? () => jsAttention(x.Q.data, x.K.data, x.V.data, x.n, x.d).output : null),
};

// ---- load every peer ---------------------------------------------------------------

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(
  `\nmachine: ${cpus()[0]?.model ?? '?'}, ${cpus().length} cores, node ${process.version}, load average ${load()}`,
);
const ours = await loadOurs(join(root, 'dist/lib/index.js'));
const ort = await loadOnnxRuntime(join(root, 'bench/onnx'));
const tfjs = await loadTfjs();
console.log(`tfjs wasm backend: ${tfjs.info}; onnxruntime-web: numThreads 1, wasm EP`);
console.log('building the native benchmark (cmake --build build/native --target native_bench) ...');
const native = buildNative(root);
const wasmPeers = [ours.float64, ours.float32, ort.float64, ort.float32, tfjs, jsLoop].filter(Boolean);
const COLUMNS = [
  'attention-lab float64',
  'attention-lab float32',
  ort.float64.label,
  ort.float32.label,
  tfjs.label,
  'native Eigen float64',
  'native Eigen float32',
  jsLoop.label,
];

// ---- measure -------------------------------------------------------------------------

const results = []; // { case, label, precision, median, count, diff }
for (const c of CASES) {
  const x = inputs(c);
  const x32 = inFloat32(x);
  const runners = [];
  for (const peer of wasmPeers) {
    const run = await peer.prepare(c.op, peer.precision === 'float32' ? x32 : x);
    if (run) runners.push({ label: peer.label, precision: peer.precision, run, times: [] });
  }
  const reference = await runners[0].run(); // attention-lab float64
  for (const r of runners) r.diff = maxAbsDiff(await r.run(), reference);
  const nativeTimes = { float64: [], float32: [] };
  let nativeOut = null;
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of runners) {
      const runs = r.label === jsLoop.label ? Math.max(1, Math.ceil(c.runs / 4)) : c.runs;
      r.times.push(...(await samples(r.run, runs)));
    }
    nativeOut = native.run(c.op, x, c.runs);
    for (const p of ['float64', 'float32']) nativeTimes[p].push(...nativeOut[p].samples);
  }
  for (const r of runners) {
    r.run.dispose?.();
    results.push({
      case: c,
      label: r.label,
      precision: r.precision,
      median: median(r.times),
      best: Math.min(...r.times),
      count: r.times.length,
      diff: r.diff,
    });
  }
  for (const p of ['float64', 'float32']) {
    const t = nativeTimes[p];
    results.push({
      case: c,
      label: `native Eigen ${p}`,
      precision: p,
      median: median(t),
      best: Math.min(...t),
      count: t.length,
      diff: maxAbsDiff(nativeOut[p].output, reference),
    });
  }
  process.stdout.write(`  measured ${caseName(c)}\n`);
}
native.dispose();

// ---- report ----------------------------------------------------------------------------

const get = (c, label) => results.find((r) => r.case === c && r.label === label);
const ms = (r) => (r ? r.median.toFixed(2) : 'n/a');
const ratio = (r, base) => (r && base ? `${(r.median / base.median).toFixed(2)}x` : 'n/a');

console.log(
  `\nPeers, one Node process, one thread, median of ${ROUNDS} alternating rounds (ms), inputs and outputs as JS typed arrays:`,
);
console.log(`\n| case | ${COLUMNS.join(' | ')} |`);
console.log(`| --- |${' ---: |'.repeat(COLUMNS.length)}`);
for (const c of CASES) console.log(`| ${caseName(c)} | ${COLUMNS.map((l) => ms(get(c, l))).join(' | ')} |`);

for (const c of CASES) {
  const o64 = get(c, 'attention-lab float64');
  const o32 = get(c, 'attention-lab float32');
  console.log(
    `\n${caseName(c)}: time / attention-lab time (> 1: attention-lab faster), max |output - attention-lab float64|`,
  );
  console.log('| implementation | median ms | best ms | samples | / ours float64 | / ours float32 | max abs diff |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const label of COLUMNS) {
    const r = get(c, label);
    if (!r) continue;
    console.log(
      `| ${label} | ${ms(r)} | ${r.best.toFixed(2)} | ${r.count} | ${ratio(r, o64)} | ${ratio(r, o32)} | ${r.diff.toExponential(1)} |`,
    );
  }
  if (!o32) console.log('| attention-lab float32 | n/a (no float32 path in this build) | | | | | |');
  for (const r of results.filter((r) => r.case === c)) {
    const tolerance = r.precision === 'float32' ? 1e-3 : 1e-9;
    if (!(r.diff <= tolerance))
      console.log(`WARNING: ${r.label} differs from attention-lab float64 by ${r.diff} (> ${tolerance})`);
  }
}

// ---- targets (issue 15) -------------------------------------------------------------------

const big = CASES.find((c) => c.op === 'sdpa' && c.n === 1024);
const mha = CASES.find((c) => c.op === 'mha');
const target = (what, value, ok, goal) =>
  console.log(
    `  ${what}: ${value === null ? 'n/a' : `${value.toFixed(2)}x`} (target ${goal}) ${value === null ? 'NOT MEASURED' : ok ? 'MET' : 'NOT MET'}`,
  );
const speedup = (peer, base) =>
  get(big, peer) && get(big, base) ? get(big, peer).median / get(big, base).median : null;
console.log('\ntargets:');
const f32 = speedup(ort.float32.label, 'attention-lab float32');
target('n=1024 attention-lab float32 vs onnxruntime-web float32, speed-up', f32, f32 >= 1.2, '>= 1.2x');
const f64 = speedup(ort.float64.label, 'attention-lab float64');
target('n=1024 attention-lab float64 vs onnxruntime-web float64, speed-up', f64, f64 >= 2, '>= 2x');
const slow = get(mha, 'attention-lab float64').median / get(mha, 'native Eigen float64').median;
target('multi-head attention-lab float64 (wasm) / native Eigen float64, slowdown', slow, slow <= 2, '<= 2x');

console.log(`\nload average at the end: ${load()}`);
const refused = networkAttempts();
console.log(
  `\nnetwork: ${refused.length} access attempt(s) refused${refused.length ? `: ${refused.join(', ')}` : ' (every peer ran offline)'}`,
);
if (refused.length) process.exitCode = 1;
