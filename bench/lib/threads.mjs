// What the threaded model module gives (web/src/api/model/core.js): a 64-token
// forward pass with every attention map (runIds) on random weights of two
// shapes, in Chromium on a cross-origin isolated page (COOP + COEP), on 1
// thread (the single-threaded module, what a page without isolation gets)
// and on `threads` threads (the threaded module). Each run is its own page,
// so one page never loads both modules; the two pages' runs alternate.
//
//   import { threadsSpeedup } from './lib/threads.mjs';
//   const r = await threadsSpeedup();   // { threads_speedup, gpt2_threads_speedup, ... }
//
// `node bench/lib/threads.mjs` prints it. The weights (~1.1 GB, float32) are
// written once into the OS temp folder and reused.
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { gpt2Tensors } from '../../tests/js/gpt2-files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIR = join(tmpdir(), 'attention-lab-threads-bench');
const TOKENS = 64;

/** SmolLM2-135M's shapes (Hugging Face config fields), random weights. */
const SMOLLM2 = {
  model_type: 'llama',
  num_hidden_layers: 30,
  hidden_size: 576,
  num_attention_heads: 9,
  num_key_value_heads: 3,
  head_dim: 64,
  intermediate_size: 1536,
  vocab_size: 49152,
  max_position_embeddings: 8192,
  rms_norm_eps: 1e-5,
  rope_theta: 100000,
  hidden_act: 'silu',
  tie_word_embeddings: true,
  attention_bias: false,
  mlp_bias: false,
  bos_token_id: 258,
  eos_token_id: 261,
  torch_dtype: 'float32',
};
/** GPT-2 small's shapes. */
const GPT2 = {
  model_type: 'gpt2',
  n_layer: 12,
  n_head: 12,
  n_embd: 768,
  n_positions: 1024,
  vocab_size: 50257,
  layer_norm_epsilon: 1e-5,
  activation_function: 'gelu_new',
};

function llamaTensors(c) {
  const D = c.hidden_size,
    hd = c.head_dim,
    Q = c.num_attention_heads * hd,
    KV = c.num_key_value_heads * hd;
  const F = c.intermediate_size;
  const list = [['model.embed_tokens.weight', [c.vocab_size, D]]];
  for (let l = 0; l < c.num_hidden_layers; l++) {
    const p = `model.layers.${l}.`;
    list.push(
      [p + 'input_layernorm.weight', [D]],
      [p + 'self_attn.q_proj.weight', [Q, D]],
      [p + 'self_attn.k_proj.weight', [KV, D]],
      [p + 'self_attn.v_proj.weight', [KV, D]],
      [p + 'self_attn.o_proj.weight', [D, Q]],
      [p + 'post_attention_layernorm.weight', [D]],
      [p + 'mlp.gate_proj.weight', [F, D]],
      [p + 'mlp.up_proj.weight', [F, D]],
      [p + 'mlp.down_proj.weight', [D, F]],
    );
  }
  list.push(['model.norm.weight', [D]]);
  return list;
}

/** Writes an F32 safetensors file of `tensors`: norms' weights 1, the rest uniform in ±0.05 (seeded). */
async function writeSafetensors(file, tensors) {
  const header = {};
  let offset = 0;
  for (const [name, shape] of tensors) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const text = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  const out = createWriteStream(file + '.part');
  const write = (chunk) => new Promise((ok, fail) => out.write(chunk, (e) => (e ? fail(e) : ok())));
  await write(length);
  await write(text);
  let state = 0x9e3779b9;
  for (const [name, shape] of tensors) {
    const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
    const norm = /norm|ln_/.test(name) && name.endsWith('weight');
    for (let i = 0; i < values.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      values[i] = norm ? 1 : ((state >>> 0) / 2 ** 32 - 0.5) * 0.1;
    }
    await write(Buffer.from(values.buffer));
  }
  await new Promise((ok, fail) => out.end((e) => (e ? fail(e) : ok())));
  renameSync(file + '.part', file);
}

/** The folder of a random model (written if absent): config.json, model.safetensors, tokenizer.json. */
async function modelFolder(name, config, tensors, tokenizer) {
  const dir = join(DIR, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'tokenizer.json'), readFileSync(join(ROOT, 'tests/fixtures', tokenizer, 'tokenizer.json')));
  if (!existsSync(join(dir, 'model.safetensors'))) await writeSafetensors(join(dir, 'model.safetensors'), tensors);
  return dir;
}

const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const PAGE = '<!doctype html><meta charset="utf-8"><title>threads bench</title>';

/** A page with `model` (a folder under /models/) opened with `threads` and warmed up; run() times one pass (ms). */
async function modelPage(browser, url, model, threads) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(new URL('/threads-bench.html', url).href);
  const opened = await page.evaluate(
    async ({ model, threads, tokens }) => {
      const { loadAttention } = await import('/dist/lib/index.js');
      const a = await loadAttention({ trainers: false });
      const at = (f) => new URL(`/models/${model}/${f}`, globalThis.location.href).href;
      const m = await a.openModel(
        {
          'config.json': at('config.json'),
          'model.safetensors': at('model.safetensors'),
          'tokenizer.json': at('tokenizer.json'),
        },
        { threads },
      );
      const ids = Array.from({ length: tokens }, (_, i) => (i * 37 + 11) % 256);
      m.runIds(ids); // warm-up: packing buffers, memory growth
      globalThis.benchRun = () => {
        const t0 = performance.now();
        m.runIds(ids);
        return performance.now() - t0;
      };
      return { threads: m.threads, isolated: globalThis.crossOriginIsolated };
    },
    { model, threads, tokens: TOKENS },
  );
  const check = () => {
    if (errors.length) throw new Error(`threads bench: page errors: ${errors.join('; ')}`);
  };
  check();
  return {
    ...opened,
    run: async () => {
      const ms = await page.evaluate(() => globalThis.benchRun());
      check();
      return ms;
    },
    close: () => page.close(),
  };
}

/** CPU seconds used so far by the browser's renderer processes (the pages and their workers). */
async function rendererCpu(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime, 0);
}

/**
 * Best times of one thread and of `threads` on `model`, their runs alternating (the load
 * changes), with the load, and the CPU time a pass takes on average (all threads; from the
 * kernel's clock ticks): on a machine other programs keep busy, threads may get no spare core,
 * but cpuMs says what the split costs: `threads` x oneCpuMs / manyCpuMs is the speedup an
 * idle machine would give if nothing else (memory bandwidth) limits it.
 */
async function compare(browser, cdp, url, model, threads, runs) {
  const one = await modelPage(browser, url, model, 1);
  const many = await modelPage(browser, url, model, threads);
  try {
    if (!many.isolated || one.threads !== 1 || many.threads !== threads)
      throw new Error(`threads bench: the page ran ${many.threads} threads (isolated: ${many.isolated})`);
    const best = { one: Infinity, many: Infinity };
    const cpu = { one: 0, many: 0 };
    const loads = [];
    const timed = async (page, key) => {
      const before = await rendererCpu(cdp);
      best[key] = Math.min(best[key], await page.run());
      cpu[key] += (await rendererCpu(cdp)) - before;
    };
    for (let r = 0; r < runs; r++) {
      await timed(one, 'one');
      await timed(many, 'many');
      loads.push(loadavg()[0]);
    }
    return {
      oneMs: best.one,
      manyMs: best.many,
      speedup: best.one / best.many,
      oneCpuMs: (1000 * cpu.one) / runs,
      manyCpuMs: (1000 * cpu.many) / runs,
      load: Math.max(...loads),
    };
  } finally {
    await one.close();
    await many.close();
  }
}

/**
 * The speedup of `threads` threads over one on both shapes (two pages per shape, their runs alternating).
 * Each shape: { oneMs, manyMs, speedup, oneCpuMs, manyCpuMs, load } (see compare; load: the
 * highest 1-minute load average seen).
 * @returns {Promise<{ threads_speedup: number, gpt2_threads_speedup: number, threads: number,
 *   smollm2: object, gpt2: object, cpu: string }>}
 */
export async function threadsSpeedup({ threads = 2, runs = 9 } = {}) {
  const smol = await modelFolder('smollm2-135m', SMOLLM2, llamaTensors(SMOLLM2), 'llama');
  const gpt2 = await modelFolder('gpt2-small', GPT2, gpt2Tensors(GPT2), 'gpt2');
  const folders = { 'smollm2-135m': smol, 'gpt2-small': gpt2 };
  const alias = (path) => {
    const m = /^\/models\/([\w-]+)\/([\w.]+)$/.exec(path);
    return m && folders[m[1]] ? join(folders[m[1]], m[2]) : undefined;
  };
  const handle = (req, res) => {
    if (!req.url?.startsWith('/threads-bench.html')) return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...ISOLATED }).end(PAGE);
    return true;
  };
  const { server, url } = await serve({ root: ROOT, headers: ISOLATED, handle, alias });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    headless: true,
  });
  try {
    const cdp = await browser.newBrowserCDPSession();
    const smollm2 = await compare(browser, cdp, url, 'smollm2-135m', threads, runs);
    const gpt2Result = await compare(browser, cdp, url, 'gpt2-small', threads, runs);
    return {
      threads_speedup: smollm2.speedup,
      gpt2_threads_speedup: gpt2Result.speedup,
      threads,
      smollm2,
      gpt2: gpt2Result,
      cpu: `${cpus()[0]?.model ?? '?'} x${cpus().length}`,
    };
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await threadsSpeedup();
  const line = (name, x) =>
    `${name}: 1 thread ${x.oneMs.toFixed(1)} ms, ${r.threads} threads ${x.manyMs.toFixed(1)} ms: ` +
    `${x.speedup.toFixed(2)}x (best of each, alternating; load average up to ${x.load.toFixed(2)}); ` +
    `CPU per pass ${x.oneCpuMs.toFixed(0)} ms and ${x.manyCpuMs.toFixed(0)} ms`;
  console.log(`64-token forward with every map, Chromium, cross-origin isolated, ${r.cpu}`);
  console.log(line('SmolLM2-135M shapes', r.smollm2));
  console.log(line('GPT-2 small shapes ', r.gpt2));
}
