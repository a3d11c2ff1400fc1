/* global self */
// bench/tokenizer-browser.mjs's worker: in the browser, off the main thread, the same
// measurement as bench/tokenizer.mjs's first rows (JSON.parse of a tokenizer.json's
// text against loadTokenizer and loadTokenizerAsync of it, medians of the runs), the
// order rotating run by run so that each one follows each other (the garbage one leaves
// is collected during the next).
import { loadTokenizer, loadTokenizerAsync } from '../web/src/api/tokenizer/index.js';

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

self.onmessage = async ({ data: { url, runs } }) => {
  const text = await (await fetch(url)).text();
  const times = { parse: [], sync: [], async: [] };
  const measure = {
    parse: async () => JSON.parse(text),
    sync: async () => loadTokenizer({ 'tokenizer.json': text }),
    async: () => loadTokenizerAsync({ 'tokenizer.json': text }),
  };
  const kinds = Object.keys(measure);
  for (let run = 0; run < runs; run++) {
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[(run + i) % kinds.length];
      const t0 = performance.now();
      await measure[kind]();
      times[kind].push(performance.now() - t0);
    }
  }
  self.postMessage({
    megabytes: text.length / 1e6,
    ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])),
  });
};
