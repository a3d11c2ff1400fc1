// The GPT-2 small comparison (bench/gpt2.mjs, and re-measured by
// bench/models.mjs): a GPT-2-small-shaped model (12 layers, 12 heads, n_embd
// 768, vocab 50257; random float32 weights written by bench/make_gpt2_onnx.py
// into the OS temp folder, ~1 GB, reused if present) on 64 tokens, one thread:
//   attention-lab    openModel (the model.safetensors as a file-backed Blob), then
//                    Gpt2Model.runIds: every layer's and head's attention maps and
//                    the next-token probabilities
//   onnxruntime-web  wasm EP, 1 thread, the same forward pass as an ONNX graph
//                    with the same weights as initializers, the same outputs
// Timed in alternating rounds (one warm-up each); both outputs compared.
import { execFileSync } from 'node:child_process';
import { existsSync, openAsBlob, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lcgIds, ortSession } from './ort.mjs';
import { median, samples } from './timing.mjs';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GPT2_TOKENS = 64;

/**
 * Opens both implementations of GPT-2 small (writing the files first if absent).
 * `a` is a loaded attention-lab module. Returns { ours, session, openMs, ids, release }.
 */
export async function openGpt2(a) {
  const T = GPT2_TOKENS;
  const dir = join(tmpdir(), 'attention-lab-gpt2-bench');
  const onnxFile = join(dir, `gpt2_t${T}.onnx`);
  if (!existsSync(onnxFile) || !existsSync(join(dir, 'model.safetensors'))) {
    console.log(`gpt2: writing the random GPT-2-small files into ${dir} (bench/make_gpt2_onnx.py) ...`);
    execFileSync('/usr/bin/python3', [join(benchDir, 'make_gpt2_onnx.py'), dir, String(T)], { stdio: 'inherit' });
  }
  const t0 = performance.now();
  const ours = await a.openModel({
    'config.json': readFileSync(join(dir, 'config.json')),
    'model.safetensors': await openAsBlob(join(dir, 'model.safetensors')),
    'tokenizer.json': readFileSync(join(benchDir, '..', 'tests', 'fixtures', 'gpt2', 'tokenizer.json')),
  });
  const openMs = performance.now() - t0;
  const session = await ortSession(onnxFile);
  const release = async () => {
    ours.delete();
    await session.release();
  };
  return { ours, session, openMs, ids: lcgIds(T, 50257, 25), release };
}

/**
 * Times both on the same 64 ids in `rounds` alternating rounds of `runs` calls.
 * Returns { ms: { ours, ort }, ratio (ORT's time / ours), attentionDiff, pDiff, samples }.
 */
export async function compareGpt2({ ours, session, ids }, ort, rounds, runs) {
  const T = ids.length;
  const feeds = { ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [T]) };
  let oursResult, ortResult;
  const times = { ours: [], ort: [] };
  for (let round = 0; round < rounds; round++) {
    times.ours.push(...(await samples(() => (oursResult = ours.runIds(ids)), runs)));
    times.ort.push(...(await samples(async () => (ortResult = await session.run(feeds)), runs)));
  }
  let attentionDiff = 0;
  for (let l = 0; l < 12; l++) {
    const theirMaps = ortResult[`attention${l}`].data;
    oursResult.attentions[l].forEach((m, h) => {
      for (let i = 0; i < T * T; i++)
        attentionDiff = Math.max(attentionDiff, Math.abs(m.data[i] - theirMaps[h * T * T + i]));
    });
  }
  const theirP = ortResult.probabilities.data;
  const pDiff = Math.max(...oursResult.next.map((n) => Math.abs(n.p - theirP[n.id])));
  const ms = { ours: median(times.ours), ort: median(times.ort) };
  return { ms, ratio: ms.ort / ms.ours, attentionDiff, pDiff, samples: times.ours.length };
}
