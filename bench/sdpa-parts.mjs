// Where scaledDotProductAttention (float32 and float64, n = 1024, d = 64 by
// default) spends its time: the phases inside wasm (bench/sdpa_parts.cpp, built
// here as the wasm target sdpa_parts) and the JS side of the public call
// (dist/lib): the heap writes, the result copies out, the fixed cost of a call.
//   node bench/sdpa-parts.mjs [n] [d] [runs]
// Every time is the fastest of `runs` (wasm phases: summed over row blocks, each
// block's fastest): the machine is shared, and the fastest sample is the one
// least disturbed by other processes. Needs `npm run build` (build/wasm, dist/lib).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomMatrix, toFloat32 } from './lib/data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [n = 1024, d = 64, runs = 20] = process.argv.slice(2).map(Number);

execFileSync('cmake', ['--build', join(root, 'build/wasm'), '--target', 'sdpa_parts', '-j2'], {
  stdio: 'ignore',
  env: { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') },
});
const inside = execFileSync('node', [join(root, 'build/wasm/sdpa_parts.cjs'), n, d, runs].map(String), {
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

/** Fastest of `runs` calls of body, in ms. */
function fastest(body) {
  body();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    body();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const { loadAttention } = await import(pathToFileURL(join(root, 'dist/lib/index.js')).href);
const a = await loadAttention();
const x64 = { Q: randomMatrix(n, d, 1), K: randomMatrix(n, d, 2), V: randomMatrix(n, d, 3) };
const x32 = { Q: toFloat32(x64.Q), K: toFloat32(x64.K), V: toFloat32(x64.V) };

// The JS side, piece by piece, as the API performs it (web/src/api): typed
// inputs are borrowed, not copied (convert.js borrowMatrix); heap.js writes
// them into the heap and copies each result out into a fresh typed array
// (new + set(subarray)). The fixed cost of a call (option reading, embind,
// five mallocs and frees) is timed on a 4 x 4 problem.
function jsSide(x, Typed, precision) {
  const heap = new Typed(n * n + 4 * n * d);
  const inputs = Object.values(x);
  const readOut = (count) => () => new Typed(count).set(heap.subarray(0, count));
  const tiny = { Q: randomMatrix(4, 4, 1), K: randomMatrix(4, 4, 2), V: randomMatrix(4, 4, 3) };
  const tinyTyped =
    Typed === Float32Array ? { Q: toFloat32(tiny.Q), K: toFloat32(tiny.K), V: toFloat32(tiny.V) } : tiny;
  return {
    'write inputs to the heap': fastest(() => inputs.forEach((m, i) => heap.set(m.data, i * n * d))),
    'read output (n x d)': fastest(readOut(n * d)),
    'read weights (n x n)': fastest(readOut(n * n)),
    'fixed cost of a call (4 x 4)': fastest(() =>
      a.scaledDotProductAttention(tinyTyped.Q, tinyTyped.K, tinyTyped.V, { precision }),
    ),
  };
}

console.log(`scaledDotProductAttention n=${n} d=${d}, fastest of ${runs} (ms)\n`);
console.log('| part | float32 | float64 |');
console.log('| --- | ---: | ---: |');
const byType = Object.fromEntries(inside.map((r) => [r.type, r]));
const rows = [
  ['wasm: pack K^T and V', 'pack'],
  ['wasm: scores Q K^T (gemm)', 'scores'],
  ['wasm: masked softmax with the overflow check', 'softmax'],
  ['wasm: weights V (gemm)', 'wv'],
  ['wasm: sum of the phases', 'sum'],
  ['wasm: the core call scaledDotProductAttention', 'call'],
];
for (const [label, key] of rows) {
  console.log(`| ${label} | ${byType.float32[key].toFixed(2)} | ${byType.float64[key].toFixed(2)} |`);
}
const js32 = jsSide(x32, Float32Array, 'float32');
const js64 = jsSide(x64, Float64Array, 'float64');
for (const label of Object.keys(js32)) {
  console.log(`| JS: ${label} | ${js32[label].toFixed(2)} | ${js64[label].toFixed(2)} |`);
}
const api32 = fastest(() => a.scaledDotProductAttention(x32.Q, x32.K, x32.V, { precision: 'float32' }));
const api64 = fastest(() => a.scaledDotProductAttention(x64.Q, x64.K, x64.V));
console.log(`| public API call (dist/lib) | ${api32.toFixed(2)} | ${api64.toFixed(2)} |`);
