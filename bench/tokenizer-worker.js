/* global self */
// bench/tokenizer-browser.mjs's worker: in the browser, off the main thread, the same
// measurement as bench/tokenizer.mjs's first rows (JSON.parse of a tokenizer.json's
// text against loadTokenizer and loadTokenizerAsync of it, alternating, medians of 5).
import { loadTokenizer, loadTokenizerAsync } from '../web/src/api/tokenizer/index.js';

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

self.onmessage = async ({ data: { url, runs } }) => {
  const text = await (await fetch(url)).text();
  const times = { parse: [], sync: [], async: [] };
  for (let run = 0; run < runs; run++) {
    let t0 = performance.now();
    JSON.parse(text);
    times.parse.push(performance.now() - t0);
    t0 = performance.now();
    loadTokenizer({ 'tokenizer.json': text });
    times.sync.push(performance.now() - t0);
    t0 = performance.now();
    await loadTokenizerAsync({ 'tokenizer.json': text });
    times.async.push(performance.now() - t0);
  }
  self.postMessage({
    megabytes: text.length / 1e6,
    ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])),
  });
};
