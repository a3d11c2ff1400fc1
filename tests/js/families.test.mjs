// Every model family through openModel, one fixture folder each:
// tests/fixtures/<family>/ holds a tiny random checkpoint in the Hugging Face
// layout, written with expected.txt (a float64 NumPy forward pass) by its
// make.py. For each sequence seq<s> there (ids, and token types when the family
// takes them) every layer's attention maps (H T x T, head h at rows h T ..) must
// match within 1e-5 (|got - want| / max(1, |want|), float32 against float64; the
// families' own tests check the rest: logits, tokenizers, hostile files). A new
// family's folder is found here with no edit.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture } from './fixtures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A fixture folder is the Hugging Face folder plus these (and model-*.safetensors variants for its own tests). */
const NOT_MODEL_FILES = ['make.py', 'expected.txt', '__pycache__'];
const FAMILIES = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(ROOT, d.name, 'expected.txt')))
  .map((d) => d.name)
  .sort();

const a = await loadAttention();

test('the fixture folders are the families openModel knows', async () => {
  assert.ok(FAMILIES.includes('gpt2') && FAMILIES.includes('bert'), FAMILIES.join(', '));
  // An unknown model_type is refused with the registry's list, which names every family here.
  const config = new TextEncoder().encode(JSON.stringify({ model_type: 'no-such-family' }));
  const files = { 'config.json': config, 'model.safetensors': new Uint8Array(0) };
  const error = await a.openModel(files).catch((e) => e);
  assert.ok(error instanceof RangeError, String(error));
  for (const family of FAMILIES) assert.match(error.message, new RegExp(`'${family}'`));
});

for (const family of FAMILIES) {
  test(`${family}: the fixture folder opens and every attention map matches NumPy`, async () => {
    const dir = join(ROOT, family);
    const files = Object.fromEntries(
      readdirSync(dir)
        .filter((n) => !NOT_MODEL_FILES.includes(n) && !n.startsWith('model-'))
        .map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]),
    );
    const ref = loadFixture(`${family}/expected.txt`);
    const m = await a.openModel(files);
    try {
      assert.equal(m.family, family);
      const sequences = [...ref.keys()].filter((k) => /^seq\d+\.ids$/.test(k)).map((k) => k.slice(0, -4));
      assert.ok(sequences.length > 0, `${family}/expected.txt has no seq<s>.ids`);
      for (const s of sequences) {
        const ids = Array.from(ref.get(`${s}.ids`).data);
        const T = ids.length;
        const r = ref.has(`${s}.types`)
          ? m.runIds(ids, { typeIds: Array.from(ref.get(`${s}.types`).data) })
          : m.runIds(ids);
        const layers = [...ref.keys()].filter((k) => k.startsWith(`${s}.attention`)).length;
        assert.equal(r.attentions.length, layers, `${s}: layers`);
        for (let l = 0; l < layers; l++) {
          const want = ref.get(`${s}.attention${l}`);
          const H = want.rows / T;
          assert.equal(r.attentions[l].length, H, `${s} layer ${l}: heads`);
          for (let h = 0; h < H; h++)
            assertClose(r.attentions[l][h].data, want.data.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
              label: `${family} ${s} layer ${l} head ${h}`,
            });
        }
      }
    } finally {
      m.delete();
    }
  });
}
