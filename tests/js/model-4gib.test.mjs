// The model module's memory grows past 2 GiB (to 4 GiB where the engine allows)
// and every address above 2^31 is read unsigned. The tiny GPT-2 fixture
// (tests/fixtures/gpt2, NumPy float64 references in expected.txt) is padded with
// zeros that change none of its numbers: vocab_size and n_positions to 2^24 (rows
// no id reads; the extra logits are exactly 0), n_inner to 2^21 (MLP units whose
// weights and biases are 0: GELU(0) = 0 adds nothing), and 16 all-zero layers
// before its two (a zero layer adds 0 to the residual: it is the identity; its
// maps are the even causal spread). The fixture's layers come after 2.1 GiB of
// weights, so they, the logits' rows and the forward pass's buffers sit above
// 2^31; every map and the logits are checked against the references with
// gpt2.test.mjs's tolerances (1e-5, 2e-5). The linear weights are written BF16
// (the fixture's values are on the bf16 grid) so none is copied when packed.
// The 2.5 GiB file is written sparse into the OS temp folder, read from disk
// (fs.openAsBlob) and removed after. One model: one such instance at a time.
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, gpt2Tensors, splitSafetensors } from './gpt2-files.js';
import { assertClose, loadFixture } from './fixtures.js';

const PAD = 2 ** 24; // the largest size a config may give
const INNER = 2 ** 21;
const ZERO_LAYERS = 16;
const a = await loadAttention();
const ref = loadFixture('gpt2/expected.txt');
const config = JSON.parse(new TextDecoder().decode(fixtureBytes('config.json')));
const { n_layer: L, n_head: H, n_embd: D, vocab_size: V, n_positions: P } = config;
const F = 4 * D; // the fixture's n_inner (null: 4 n_embd)
const padded = { ...config, n_layer: ZERO_LAYERS + L, vocab_size: PAD, n_positions: PAD, n_inner: INNER };
const dir = mkdtempSync(join(tmpdir(), 'attention-lab-4gib-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const isHalf = (name) => /\.(c_attn|c_proj|c_fc)\.weight$/.test(name);

/** float32 values on the bf16 grid as BF16 (their upper 16 bits: exact). */
function bf16(values) {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    assert.equal(bits[i] & 0xffff, 0, 'the fixture is on the bf16 grid');
    out[i] = bits[i] >>> 16;
  }
  return out;
}

/** The fixture's tensors (float32) by name, without a "transformer." prefix. */
function fixtureTensors() {
  const { header, data } = splitSafetensors(fixtureBytes('model.safetensors'));
  const out = new Map();
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [begin, end] = t.data_offsets;
    out.set(name.replace(/^transformer\./, ''), new Float32Array(data.slice(begin, end).buffer));
  }
  return out;
}

/** The fixture's tensor that padded tensor `name` holds (zero layers: none). */
function sourceName(name) {
  const m = name.match(/^h\.(\d+)\.(.*)$/);
  if (!m) return name;
  const layer = Number(m[1]) - ZERO_LAYERS;
  return layer >= 0 ? `h.${layer}.${m[2]}` : null;
}

/**
 * Writes the padded checkpoint sparse: only the fixture's values are written, each where the
 * padded shape puts it (a tensor grown in columns keeps each row's first entries). Returns the
 * weights' bytes and the offset of the fixture's first layer among them.
 */
function writePadded(path) {
  const given = fixtureTensors();
  const header = {};
  let offset = 0;
  const places = [];
  for (const [name, shape] of gpt2Tensors(padded)) {
    const half = isHalf(name);
    const bytes = (half ? 2 : 4) * shape.reduce((x, y) => x * y, 1);
    header[name] = { dtype: half ? 'BF16' : 'F32', shape, data_offsets: [offset, offset + bytes] };
    places.push({ name, shape, offset, half });
    offset += bytes;
  }
  const text = Buffer.from(JSON.stringify(header));
  const start = 8 + text.length;
  const fd = openSync(path, 'w');
  try {
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(text.length));
    writeSync(fd, length, 0, 8, 0);
    writeSync(fd, text, 0, text.length, 8);
    for (const { name, shape, offset: at, half } of places) {
      const from = sourceName(name);
      if (from === null) continue; // a zero layer
      assert.ok(given.has(from), `the fixture has ${from}`);
      const values = half ? bf16(given.get(from)) : given.get(from);
      const size = half ? 2 : 4;
      const cols = shape.length === 2 ? shape[1] : shape[0];
      // The fixture's columns where the padding grew them (c_fc's n_inner), else the same.
      const fixtureCols = cols === INNER ? F : cols;
      if (fixtureCols === cols) {
        writeSync(fd, Buffer.from(values.buffer), 0, values.byteLength, start + at);
        continue;
      }
      for (let r = 0; r < values.length / fixtureCols; r++) {
        const row = Buffer.from(values.buffer, size * r * fixtureCols, size * fixtureCols);
        writeSync(fd, row, 0, row.length, start + at + size * r * cols);
      }
    }
    ftruncateSync(fd, start + offset); // the zeros: a hole the file system does not store
  } finally {
    closeSync(fd);
  }
  return { bytes: offset, first: places.find((p) => p.name === `h.${ZERO_LAYERS}.ln_1.weight`).offset };
}

test('a model whose weights end above 2 GiB opens, and its numbers there match NumPy (4 GiB memory)', async () => {
  const path = join(dir, 'model.safetensors');
  const { bytes, first } = writePadded(path);
  assert.ok(first >= 2 ** 31, `the fixture's layers start at byte ${first} of the weights`);
  const m = await a.openModel({
    'config.json': new TextEncoder().encode(JSON.stringify(padded)),
    'model.safetensors': await openAsBlob(path),
    'tokenizer.json': fixtureBytes('tokenizer.json'),
  });
  try {
    assert.ok(a.memoryBytes() > bytes && bytes > 2 ** 31, `memory ${a.memoryBytes()} for ${bytes} of weights`);
    for (let s = 0; s < 3; s++) {
      const ids = Array.from(ref.get(`seq${s}.ids`).data);
      const T = ids.length;
      assert.ok(T <= P);
      const r = m.runIds(ids, { logits: true, k: 3 });
      assert.equal(r.attentions.length, ZERO_LAYERS + L);
      const even = Float64Array.from({ length: T * T }, (_, n) =>
        n % T <= Math.floor(n / T) ? 1 / (Math.floor(n / T) + 1) : 0,
      );
      assertClose(r.attentions[0][0].data, even, 1e-6, { label: 'a zero layer: the even causal spread' });
      for (let l = 0; l < L; l++) {
        const want = ref.get(`seq${s}.attention${l}`).data;
        for (let h = 0; h < H; h++)
          assertClose(r.attentions[ZERO_LAYERS + l][h].data, want.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
            label: `seq${s} layer ${l} head ${h}`,
          });
      }
      assert.equal(r.logits.length, PAD);
      assertClose(r.logits.subarray(0, V), ref.get(`seq${s}.logits`).data, 2e-5, { label: `seq${s} logits` });
      assert.ok(
        r.logits.subarray(V).every((x) => x === 0),
        'the padded rows of wte give logits of exactly 0',
      );
    }
  } finally {
    m.delete();
  }
});

test('a model past the 3.5 GiB weight limit is refused before allocating, with the MiB it needs', async () => {
  const before = a.memoryBytes();
  // Counted from config.json alone: the fixture's weights file is never matched against it. In
  // 16 bits it would fit the core's 4 GiB (2.5 GiB), so the reader's float32 bound refuses it.
  const big = { ...config, n_layer: 3, vocab_size: PAD, n_positions: PAD, n_inner: PAD };
  const offset = gpt2Tensors(big).reduce((sum, [, shape]) => sum + 4 * shape.reduce((x, y) => x * y, 1), 0);
  await assert.rejects(
    a.openModel({
      'config.json': new TextEncoder().encode(JSON.stringify(big)),
      'model.safetensors': fixtureBytes('model.safetensors'),
      'tokenizer.json': fixtureBytes('tokenizer.json'),
    }),
    (error) => {
      assert.ok(error instanceof RangeError, `${error.name}: ${error.message}`);
      const need = (offset / 2 ** 20).toFixed(1);
      assert.equal(
        error.message,
        `openModel: the model needs ${need} MiB for its float32 weights, more than the 3584.0 MiB it may use of the wasm memory (4 GiB)`,
      );
      return true;
    },
  );
  assert.equal(a.memoryBytes(), before, 'nothing allocated');
});
