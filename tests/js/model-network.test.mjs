// openModel and explainHead over HTTP, against local servers that lie (issue 34):
// a Content-Length far above any model, a connection closed early, a Range
// request answered with other bytes or ignored, a file changed on its server
// between openModel and explainHead, a redirect to another origin. Also the
// bytes a caller edits after openModel (an ArrayBuffer, a file behind a Blob).
// Every server listens on 127.0.0.1 (the second origin is `localhost`), serves
// the fixture GPT-2 from memory and is closed by the test that started it.
import assert from 'node:assert/strict';
import { openAsBlob, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, fixtureFiles, joinSafetensors, splitSafetensors } from './gpt2-files.js';
import { loadFixture } from './fixtures.js';

const a = await loadAttention();
const ids = Array.from(loadFixture('gpt2/expected.txt').get('seq1.ids').data);
const NAMES = ['config.json', 'model.safetensors', 'tokenizer.json'];
const good = fixtureBytes('model.safetensors');
const HEAD = { layer: 1, head: 1 };

/** The fixture's model file with one byte of tensor `name` changed (same length). */
function tampered(name) {
  const { header } = splitSafetensors(good);
  const headerLength = good.length - splitSafetensors(good).data.length;
  const [begin, end] = header[name].data_offsets;
  const out = good.slice();
  out[headerLength + ((begin + end) >> 1)] ^= 0x40;
  return out;
}

/**
 * A server of the fixture's files (`files`: name -> bytes, changeable between requests);
 * `answer(req, res, bytes, name)` may answer a request itself (return true). It counts
 * the requests it gets by file name.
 */
async function fixtureServer(answer = () => false, files = Object.fromEntries(NAMES.map((n) => [n, fixtureBytes(n)]))) {
  const requests = [];
  const server = createServer((req, res) => {
    const name = req.url.slice(req.url.lastIndexOf('/') + 1);
    requests.push({ name, range: req.headers.range ?? null });
    const bytes = files[name];
    if (!bytes) return void res.writeHead(404).end();
    if (answer(req, res, bytes, name)) return;
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range) {
      const from = Number(range[1]);
      const to = Math.min(Number(range[2]), bytes.length - 1);
      if (from > to) return void res.writeHead(416, { 'Content-Range': `bytes */${bytes.length}` }).end();
      res.writeHead(206, { 'Content-Range': `bytes ${from}-${to}/${bytes.length}`, 'Content-Length': to - from + 1 });
      return void res.end(bytes.subarray(from, to + 1));
    }
    res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  const base = `http://127.0.0.1:${port}/m/`;
  return {
    files,
    requests,
    port,
    urls: Object.fromEntries(NAMES.map((n) => [n, base + n])),
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}

/** Runs `body(server)` with a fixture server, closed after it whatever happens. */
async function withServer(answer, body, files) {
  const server = await fixtureServer(answer, files);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** q, k, v of HEAD from the fixture opened from bytes: what every honest source must give. */
const reference = await (async () => {
  const m = await a.openModel(fixtureFiles());
  const e = await m.explainHead(m.tokenizer.decode(ids), HEAD);
  m.delete();
  return e;
})();

async function explainsLikeTheBytes(model) {
  const e = await model.explainHead(model.tokenizer.decode(ids), HEAD);
  for (const part of ['q', 'k', 'v']) assert.deepEqual(e[part].data, reference[part].data, part);
}

/** The fixture's model with h.1.ln_1.weight's bytes moved to the end of the file (its layer no longer together). */
function scattered() {
  const { header, data } = splitSafetensors(good);
  const [begin, end] = header['h.1.ln_1.weight'].data_offsets;
  header['h.1.ln_1.weight'].data_offsets = [data.length, data.length + end - begin];
  const moved = new Uint8Array(data.length + end - begin);
  moved.set(data);
  moved.set(data.subarray(begin, end), data.length);
  return joinSafetensors(header, moved);
}

test('an honest server: the model opens from URLs and explainHead reads back the same weights by Range', async () => {
  // A layer's tensors together: one Range request; apart: one each.
  for (const [bytes, requests] of [
    [good, 1],
    [scattered(), 4],
  ]) {
    const files = { ...Object.fromEntries(NAMES.map((n) => [n, fixtureBytes(n)])), 'model.safetensors': bytes };
    await withServer(
      undefined,
      async (server) => {
        const m = await a.openModel(server.urls);
        await explainsLikeTheBytes(m);
        const ranges = server.requests.filter((r) => r.range);
        assert.deepEqual(
          ranges.map((r) => r.name),
          Array(requests).fill('model.safetensors'),
        );
        m.delete();
      },
      files,
    );
  }
});

// ---- Sizes from the network (item 5) ----

for (const name of ['config.json', 'tokenizer.json', 'model.safetensors'])
  test(`${name} declaring Content-Length 10^15 is a RangeError naming it, before anything is allocated`, () =>
    withServer(
      (req, res, bytes, file) => {
        if (file !== name) return false;
        res.writeHead(200, { 'Content-Length': '1000000000000000' });
        res.end(bytes); // the connection then closes: far fewer bytes than declared
        return true;
      },
      async (server) => {
        await assert.rejects(a.openModel(server.urls), {
          name: 'RangeError',
          message: new RegExp(
            `^openModel: ${name.replace('.', '\\.')} from '${server.urls[name].replace(/[.]/g, '\\.')}' declares \\(Content-Length\\) 1000000000000000 bytes, more than the \\d+ \\([\\d.]+ MiB\\) it may have here$`,
          ),
        });
      },
    ));

for (const name of ['tokenizer.json', 'model.safetensors'])
  test(`${name}: a connection closed early is an error naming the file and the bytes that arrived`, () =>
    withServer(
      (req, res, bytes, file) => {
        if (file !== name || req.headers.range) return false;
        res.writeHead(200, { 'Content-Length': bytes.length });
        res.write(bytes.subarray(0, 1000), () => res.destroy());
        return true;
      },
      async (server) => {
        const size = fixtureBytes(name).length;
        await assert.rejects(a.openModel(server.urls), (error) => {
          assert.equal(error.name, 'TypeError');
          assert.match(
            error.message,
            new RegExp(
              `^openModel: reading ${name.replace('.', '\\.')} from '.*' failed after 1000 bytes of the ${size} its Content-Length declared: the connection closed early \\(.+\\)$`,
            ),
          );
          return true;
        });
      },
    ));

test('a body longer or shorter than its Content-Length (a fetch that lets it through) is a RangeError', async () => {
  // node's fetch itself cuts a longer body and reports a shorter one as closed early; a
  // fetch of another kind (a service worker's, a polyfill) may not: stand one in.
  const config = fixtureBytes('config.json');
  const real = globalThis.fetch;
  try {
    for (const [declared, message] of [
      [
        config.length - 10,
        /^openModel: config\.json from 'https:\/\/x\.example\/config\.json' sent more than the \d+ bytes its Content-Length declared$/,
      ],
      [
        config.length + 10,
        /^openModel: config\.json from 'https:\/\/x\.example\/config\.json' ended after \d+ bytes of the \d+ its Content-Length declared$/,
      ],
    ]) {
      globalThis.fetch = async () =>
        new Response(new Blob([config]).stream(), { headers: { 'Content-Length': String(declared) } });
      await assert.rejects(a.openModel({ ...fixtureFiles(), 'config.json': 'https://x.example/config.json' }), {
        name: 'RangeError',
        message,
      });
    }
  } finally {
    globalThis.fetch = real;
  }
});

// ---- Bytes read twice (item 3) ----

test('a server answering the Range request with other bytes: explainHead is a RangeError naming the tensor', () =>
  withServer(
    (req, res, bytes, name) => {
      if (!req.headers.range) return false;
      const other = name === 'model.safetensors' ? tampered('h.1.attn.c_attn.weight') : bytes;
      const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range).map(Number);
      res.writeHead(206, { 'Content-Range': `bytes ${from}-${to}/${other.length}` });
      res.end(other.subarray(from, to + 1));
      return true;
    },
    async (server) => {
      const m = await a.openModel(server.urls);
      await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
        name: 'RangeError',
        message:
          'Gpt2Model.explainHead: model.safetensors changed since openModel: tensor h.1.attn.c_attn.weight (data bytes 12320 to 13088) reads differently now',
      });
      m.run(m.tokenizer.decode(ids)); // the model itself is untouched
      m.delete();
    },
  ));

test('a Range answered with bytes from elsewhere in the file (Content-Range says so) is a RangeError', () =>
  withServer(
    (req, res, bytes) => {
      if (!req.headers.range) return false;
      const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range).map(Number);
      res.writeHead(206, { 'Content-Range': `bytes ${from + 4}-${to + 4}/${bytes.length}` });
      res.end(bytes.subarray(from + 4, to + 5));
      return true;
    },
    async (server) => {
      const m = await a.openModel(server.urls);
      await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
        name: 'RangeError',
        message:
          /^Gpt2Model\.explainHead: model\.safetensors from '.*' answered bytes \d+ to \d+ with bytes \d+ to \d+$/,
      });
      m.delete();
    },
  ));

test('a server ignoring Range (the whole file, 200) still gives the right weights, from one request', () =>
  withServer(
    (req, res, bytes) => {
      res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
      return true;
    },
    async (server) => {
      const m = await a.openModel(server.urls);
      const before = server.requests.length;
      await explainsLikeTheBytes(m);
      assert.deepEqual(
        server.requests.slice(before).map((r) => r.name),
        ['model.safetensors'],
      );
      m.delete();
    },
  ));

test('model.safetensors replaced on its server after openModel (same length): a RangeError, not other weights', () =>
  withServer(undefined, async (server) => {
    const m = await a.openModel(server.urls);
    await explainsLikeTheBytes(m);
    server.files['model.safetensors'] = tampered('h.1.ln_1.weight');
    await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
      name: 'RangeError',
      message: /^Gpt2Model\.explainHead: model\.safetensors changed since openModel: tensor h\.1\.ln_1\.weight /,
    });
    server.files['model.safetensors'] = good.subarray(0, 12000); // now shorter
    await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
      name: 'RangeError',
      message:
        /^Gpt2Model\.explainHead: model\.safetensors changed since openModel: .* has no bytes=\d+-\d+ any more \(416\)$/,
    });
    m.delete();
  }));

test("a caller's ArrayBuffer or typed array edited after openModel: explainHead is a RangeError", async () => {
  for (const wrap of [(b) => b, (b) => b.buffer]) {
    const bytes = fixtureBytes('model.safetensors');
    const m = await a.openModel(fixtureFiles('model.safetensors', { 'model.safetensors': wrap(bytes) }));
    await explainsLikeTheBytes(m);
    bytes.set(tampered('h.1.attn.c_attn.bias'));
    await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
      name: 'RangeError',
      message: /^Gpt2Model\.explainHead: model\.safetensors changed since openModel: tensor h\.1\.attn\.c_attn\.bias /,
    });
    bytes.set(good); // put back: explainHead works again
    await explainsLikeTheBytes(m);
    m.delete();
  }
  // Transferred away (detached): a RangeError too, not V8's raw TypeError.
  const bytes = fixtureBytes('model.safetensors');
  const m = await a.openModel(fixtureFiles('model.safetensors', { 'model.safetensors': bytes }));
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
    name: 'RangeError',
    message: /^Gpt2Model\.explainHead: model\.safetensors changed since openModel/,
  });
  m.delete();
});

test('a Blob of a file changed on disk after openModel: explainHead is a RangeError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-blob-'));
  try {
    const path = join(dir, 'model.safetensors');
    writeFileSync(path, good);
    const m = await a.openModel(fixtureFiles('model.safetensors', { 'model.safetensors': await openAsBlob(path) }));
    await explainsLikeTheBytes(m);
    writeFileSync(path, tampered('h.1.attn.c_attn.weight'));
    await assert.rejects(m.explainHead(m.tokenizer.decode(ids), HEAD), {
      name: 'RangeError',
      message: /^Gpt2Model\.explainHead: model\.safetensors changed since openModel/,
    });
    m.delete();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- Origins on the response (item 4) ----

test('options.origins: a redirect to another origin is refused, naming the file; the same origin opens', async () => {
  const elsewhere = await fixtureServer();
  const away = `http://localhost:${elsewhere.port}/m/`;
  let redirectFrom = 'config.json';
  const home = await fixtureServer((req, res, bytes, name) => {
    if (name !== redirectFrom) return false;
    res.writeHead(302, { Location: away + name }).end();
    return true;
  });
  const origin = `http://127.0.0.1:${home.port}`;
  try {
    // Without origins, the API follows the redirect as fetch does.
    const m = await a.openModel(home.urls);
    m.delete();
    for (const name of ['config.json', 'tokenizer.json', 'model.safetensors']) {
      redirectFrom = name;
      await assert.rejects(a.openModel(home.urls, { origins: [origin] }), {
        name: 'TypeError',
        message: `openModel: ${name} from '${home.urls[name]}' was answered from http://localhost:${elsewhere.port} (${away + name}, after a redirect); only ${origin} may answer`,
      });
    }
    // Redirected only when explainHead reads again: refused too.
    redirectFrom = null;
    const own = await a.openModel(home.urls, { origins: [origin] });
    await explainsLikeTheBytes(own);
    redirectFrom = 'model.safetensors';
    await assert.rejects(own.explainHead(own.tokenizer.decode(ids), HEAD), {
      name: 'TypeError',
      message: /^Gpt2Model\.explainHead: model\.safetensors from '.*' was answered from http:\/\/localhost:\d+ /,
    });
    own.delete();
    // Explicitly allowed: both origins.
    const both = await a.openModel(home.urls, { origins: [origin, `http://localhost:${elsewhere.port}/`] });
    await explainsLikeTheBytes(both);
    both.delete();
  } finally {
    await home.close();
    await elsewhere.close();
  }
});

test('options.origins: bad values are TypeError/RangeError naming them', async () => {
  const files = fixtureFiles();
  await assert.rejects(a.openModel(files, { origins: 'http://x' }), {
    name: 'TypeError',
    message: /^openModel: options\.origins must be a non-empty array of origins, got /,
  });
  await assert.rejects(a.openModel(files, { origins: [1] }), {
    name: 'TypeError',
    message: /^openModel: options\.origins\[0\] must be a string/,
  });
  for (const bad of ['x', 'data:,a', 'https://x.example/models/'])
    await assert.rejects(a.openModel(files, { origins: [bad] }), {
      name: 'RangeError',
      message: /^openModel: options\.origins\[0\] is .*; an origin is 'https:\/\/host\[:port\]'$/,
    });
});
