// Native Eigen (bench/native_bench.cpp, -O3 -march=native, built by CMake as
// the target native_bench) in file mode: it reads the very inputs the wasm
// peers get, times Eigen in float64 and float32 itself (no process start-up in
// the times) and writes its outputs back for the comparison.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function buildNative(root) {
  const build = join(root, 'build/native');
  execFileSync('cmake', ['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'ignore' });
  execFileSync('cmake', ['--build', build, '--target', 'native_bench', '-j2'], { stdio: 'ignore' });
  const exe = join(build, 'native_bench');
  const dir = mkdtempSync(join(tmpdir(), 'attention-bench-'));

  /** Times op on x, `runs` samples each; -> { float64: {samples, output}, float32: {samples, output} }. */
  function run(op, x, runs) {
    const mats = op === 'sdpa' ? [x.Q, x.K, x.V] : [x.X, x.Wq, x.Wk, x.Wv, x.Wo];
    const input = join(dir, 'in.f64');
    const output = join(dir, 'out.f64');
    writeFileSync(
      input,
      Buffer.concat(mats.map((m) => Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength))),
    );
    const args =
      op === 'sdpa' ? ['sdpa', x.n, x.d, runs, input, output] : ['mha', x.n, x.dModel, x.heads, runs, input, output];
    const lines = execFileSync(exe, args.map(String), { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const bytes = readFileSync(output);
    const all = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    const half = all.length / 2;
    const pick = (impl) => lines.find((l) => l.impl === impl).samples;
    return {
      float64: { samples: pick('eigen-float64'), output: all.slice(0, half) },
      float32: { samples: pick('eigen-float32'), output: all.slice(half) },
    };
  }
  return { run, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
