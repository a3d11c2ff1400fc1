// openModel on hostile files: each is refused with a TypeError (a JS value of
// the wrong kind, text that is not JSON) or a RangeError (a value, size or
// shape that cannot be), whose message names the file and what is wrong, and
// the module opens and runs the good model afterwards. Nothing is allocated
// for a refused file (the wasm memory does not grow).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, fixtureFiles, joinSafetensors, splitSafetensors } from './gpt2-files.js';
import { loadFixture, assertClose } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('gpt2/expected.txt');
const good = fixtureBytes('model.safetensors');
const config = JSON.parse(new TextDecoder().decode(fixtureBytes('config.json')));
const json = (value) => new TextEncoder().encode(JSON.stringify(value));

/** The fixture model with its header changed by edit(header, data) (data may be replaced by the return value). */
function edited(edit) {
  const { header, data } = splitSafetensors(good);
  const copy = structuredClone(header);
  const result = edit(copy, data);
  const newData = result instanceof Uint8Array ? result : data;
  return joinSafetensors(copy, newData);
}

async function stillWorks() {
  const m = await a.openModel(fixtureFiles());
  const ids = Array.from(ref.get('seq1.ids').data);
  assertClose(m.runIds(ids, { logits: true }).logits, ref.get('seq1.logits').data, 2e-5);
  m.delete();
}
// The GPT-2 wasm module loads on the first openModel call; its memory counts in
// memoryBytes() from then on, so load it before any case measures.
await stillWorks();

const withModel = (bytes) => fixtureFiles('model.safetensors', { 'model.safetensors': bytes });
const withConfig = (changes) => fixtureFiles('model.safetensors', { 'config.json': json({ ...config, ...changes }) });

const CASES = [
  [
    'truncated file',
    () => withModel(good.subarray(0, good.length - 100)),
    RangeError,
    /outside the data section \(\d+ bytes\): truncated/,
  ],
  ['shorter than 8 bytes', () => withModel(good.subarray(0, 5)), RangeError, /model\.safetensors has 5 bytes/],
  [
    'header length past the end',
    () => {
      const b = good.slice();
      new DataView(b.buffer).setBigUint64(0, 10n ** 12n, true);
      return withModel(b);
    },
    RangeError,
    /header length 1000000000000 runs past the end of the file/,
  ],
  [
    'header not JSON',
    () => withModel(joinSafetensors('{"wte.weight": [1, 2', new Uint8Array(16))),
    TypeError,
    /header is not JSON/,
  ],
  [
    'header a JSON array',
    () => withModel(joinSafetensors('[1, 2]', new Uint8Array(16))),
    TypeError,
    /header must be a JSON object, got an array/,
  ],
  [
    'offsets overlapping',
    () =>
      withModel(
        edited((h) => {
          h['wpe.weight'].data_offsets = h['wte.weight'].data_offsets.map((o) => o + 4);
          h['wpe.weight'].shape = h['wte.weight'].shape;
        }),
      ),
    RangeError,
    /tensors wte\.weight \[0, \d+\] and wpe\.weight \[4, \d+\] overlap/,
  ],
  [
    'offsets past the end',
    () =>
      withModel(
        edited((h, data) => {
          h['ln_f.bias'].data_offsets = [data.length, data.length + 32];
        }),
      ),
    RangeError,
    /tensor ln_f\.bias's data_offsets \[\d+, \d+\] are outside the data section/,
  ],
  [
    'size not shape x dtype',
    () => withModel(edited((h) => (h['ln_f.bias'].shape = [9]))),
    RangeError,
    /tensor ln_f\.bias \(F32 \[9\]\) needs 36 bytes but its data_offsets \[\d+, \d+\] hold 32/,
  ],
  [
    'unknown dtype',
    () => withModel(edited((h) => (h['ln_f.bias'].dtype = 'F128'))),
    RangeError,
    /tensor ln_f\.bias has unknown dtype "F128"/,
  ],
  [
    'shape not an array',
    () => withModel(edited((h) => (h['ln_f.bias'].shape = 8))),
    RangeError,
    /tensor ln_f\.bias has shape 8/,
  ],
  [
    'integer weights',
    () => withModel(edited((h) => (h['ln_f.bias'].dtype = 'I32'))),
    RangeError,
    /ln_f\.bias is I32; weights must be F32, F16, BF16/,
  ],
  [
    'tensor missing',
    () => withModel(edited((h) => delete h['h.1.mlp.c_fc.bias'])),
    RangeError,
    /has no tensor h\.1\.mlp\.c_fc\.bias \(\[32\]\)/,
  ],
  [
    'tensor mis-shaped',
    () => withModel(edited((h) => (h['h.0.attn.c_attn.weight'].shape = [24, 8]))),
    RangeError,
    /h\.0\.attn\.c_attn\.weight has shape \[24, 8\] but the config needs \[8, 24\]/,
  ],
  [
    'a tensor twice (with and without the prefix)',
    () =>
      withModel(
        edited((h, data) => {
          h['transformer.ln_f.bias'] = { dtype: 'F32', shape: [8], data_offsets: [data.length, data.length + 32] };
          const longer = new Uint8Array(data.length + 32);
          longer.set(data);
          return longer;
        }),
      ),
    RangeError,
    /holds ln_f\.bias twice \(ln_f\.bias and transformer\.ln_f\.bias\)/,
  ],
  [
    'NaN in a weight',
    () =>
      withModel(
        edited((h, data) => {
          const copy = data.slice();
          new DataView(copy.buffer).setFloat32(h['h.1.ln_2.weight'].data_offsets[0] + 4, NaN, true);
          return copy;
        }),
      ),
    RangeError,
    /tensor h\.1\.ln_2\.weight holds NaN or ±Infinity/,
  ],
  ['heads not dividing n_embd', () => withConfig({ n_head: 3 }), RangeError, /n_head = 3 does not divide n_embd = 8/],
  ['n_layer missing', () => withConfig({ n_layer: undefined }), RangeError, /config\.json has no n_layer/],
  ['n_embd a string', () => withConfig({ n_embd: '8' }), TypeError, /n_embd must be a number, got a string/],
  [
    'unknown activation',
    () => withConfig({ activation_function: 'relu' }),
    RangeError,
    /activation_function is "relu"; known: gelu_new/,
  ],
  [
    'not a model openModel knows',
    () => withConfig({ model_type: 't5' }),
    RangeError,
    /model_type is "t5"; 'gpt2', 'bert'(, '[a-z0-9_]+')* and '[a-z0-9_]+' models open here/,
  ],
  [
    'config not JSON',
    () => fixtureFiles('model.safetensors', { 'config.json': new TextEncoder().encode('{"n_layer": 2,') }),
    TypeError,
    /config\.json is not JSON/,
  ],
  [
    'tokenizer not JSON',
    () => fixtureFiles('model.safetensors', { 'tokenizer.json': new TextEncoder().encode('<html>') }),
    TypeError,
    /tokenizer\.json is not JSON/,
  ],
  [
    'config.json missing',
    () => fixtureFiles('model.safetensors', { 'config.json': undefined }),
    TypeError,
    /files needs 'config\.json'/,
  ],
  [
    'a file of the wrong type',
    () => withModel(42),
    TypeError,
    /files\['model\.safetensors'\] must be an ArrayBuffer, a typed array, a Blob\/File or a URL string, got a number/,
  ],
  [
    'an unknown file',
    () => fixtureFiles('model.safetensors', { 'weights.bin': 'x' }),
    TypeError,
    /unknown option 'weights\.bin' in files/,
  ],
  [
    'weights past the wasm memory (19 GiB)',
    () => withConfig({ n_layer: 100, n_embd: 2048, n_head: 16 }),
    RangeError,
    /the model needs \d+ MiB for its float32 weights, more than the 4096 MiB of the wasm memory/,
  ],
  [
    'weights past the model limit (3.5 GiB)',
    () => withConfig({ n_layer: 75, n_embd: 1024, n_head: 16 }),
    RangeError,
    /the model needs 36\d\d\.\d MiB for its float32 weights, more than the 3584\.0 MiB it may use of the wasm memory \(4 GiB\)/,
  ],
];

for (const [name, files, ErrorClass, message] of CASES) {
  test(`hostile: ${name} -> ${ErrorClass.name} naming it; nothing allocated; the module keeps working`, async () => {
    const before = a.memoryBytes();
    await assert.rejects(a.openModel(files()), (error) => {
      assert.ok(
        error instanceof ErrorClass,
        `expected ${ErrorClass.name}, got ${error.constructor.name}: ${error.message}`,
      );
      assert.match(error.message, /^openModel: /);
      assert.match(error.message, message);
      return true;
    });
    assert.equal(a.memoryBytes(), before, 'the wasm memory grew for a refused file');
    await stillWorks();
  });
}

test('hostile: options and files of the wrong kind are TypeErrors', async () => {
  await assert.rejects(a.openModel(null), { name: 'TypeError', message: /^openModel: files must be an object/ });
  await assert.rejects(a.openModel(fixtureFiles(), { onProgress: 3 }), {
    name: 'TypeError',
    message: /onProgress must be a function/,
  });
  await assert.rejects(a.openModel(fixtureFiles(), { signal: {} }), {
    name: 'TypeError',
    message: /signal must be an AbortSignal/,
  });
  await stillWorks();
});
