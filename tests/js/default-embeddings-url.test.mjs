// loadDefaultEmbeddings over HTTP when the file is not where the URL says: a
// dev server's HTML fallback page, a 404, or bytes of another kind each give an
// error naming the URL and what it returned (issue 26: Vite's dev server used to
// give "no ATLEMB01 header", parsed from its index.html). The real file, served
// the same way, loads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '../../dist/lib/embeddings/glove.6B.100d.14k.bin');
const ROUTES = {
  '/fallback.bin': ['text/html; charset=utf-8', '<!doctype html><title>app</title><div id="app"></div>'],
  '/other.bin': ['application/octet-stream', 'GIF89a, not vectors'],
  '/glove.bin': ['application/octet-stream', readFileSync(VECTORS)],
};

let server;
let base;
let a;
before(async () => {
  a = await loadAttention();
  server = createServer((request, response) => {
    const route = ROUTES[request.url];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((ok) => server.close(ok)));

test('an HTML page where the vectors should be: the error names the URL and says it got HTML', async () => {
  await assert.rejects(a.loadDefaultEmbeddings({ url: `${base}/fallback.bin` }), {
    message:
      `loadDefaultEmbeddings: ${base}/fallback.bin returned an HTML page (text/html; charset=utf-8), not the ` +
      "vectors file: it is not served there (serve attention-lab's dist/lib/embeddings/glove.6B.100d.14k.bin at " +
      'that address, or pass { url })',
  });
});

test('bytes of another kind: the error names the URL, the byte count and the type', async () => {
  await assert.rejects(a.loadDefaultEmbeddings({ url: `${base}/other.bin` }), {
    message: new RegExp(
      `^loadDefaultEmbeddings: ${base}/other\\.bin returned 19 bytes of application/octet-stream that do not start with ATLEMB01, not the vectors file`,
    ),
  });
});

test('a 404: the error names the URL and the status', async () => {
  await assert.rejects(a.loadDefaultEmbeddings({ url: `${base}/missing.bin` }), {
    message: `loadDefaultEmbeddings: ${base}/missing.bin answered 404 Not Found`,
  });
});

test('the real file served over HTTP loads (14,000 words of 100 numbers)', async () => {
  const E = await a.loadDefaultEmbeddings({ url: `${base}/glove.bin` });
  try {
    assert.deepEqual([E.size, E.dim], [14000, 100]);
  } finally {
    E.delete();
  }
});
