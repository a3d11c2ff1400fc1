// Files for the GPT-2 tests and bench: the fixture folder (tests/fixtures/gpt2,
// written by gpt2/make.py), a safetensors writer for hostile and synthetic
// files, and GPT-2's tensor list for a config.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'gpt2');

/** A fixture file's bytes (a fresh Uint8Array each call). */
export const fixtureBytes = (name) => new Uint8Array(readFileSync(join(FIXTURE_DIR, name)));

/** The fixture folder with `model` as model.safetensors (and overrides). */
export function fixtureFiles(model = 'model.safetensors', overrides = {}) {
  return {
    'config.json': fixtureBytes('config.json'),
    'model.safetensors': fixtureBytes(model),
    'tokenizer.json': fixtureBytes('tokenizer.json'),
    ...overrides,
  };
}

/** A safetensors file's header object and data section. */
export function splitSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  return { header: JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))), data: bytes.subarray(8 + n) };
}

/** A safetensors file from a header object (or raw header text) and a data section. */
export function joinSafetensors(header, data) {
  const text = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}

/** GPT-2's tensors for a config: [name, shape] in Hugging Face's order. */
export function gpt2Tensors({ n_layer, n_embd: D, n_positions, vocab_size, n_inner }) {
  const F = n_inner ?? 4 * D;
  const list = [
    ['wte.weight', [vocab_size, D]],
    ['wpe.weight', [n_positions, D]],
  ];
  for (let l = 0; l < n_layer; l++) {
    const p = `h.${l}.`;
    list.push(
      [p + 'ln_1.weight', [D]],
      [p + 'ln_1.bias', [D]],
      [p + 'attn.c_attn.weight', [D, 3 * D]],
      [p + 'attn.c_attn.bias', [3 * D]],
      [p + 'attn.c_proj.weight', [D, D]],
      [p + 'attn.c_proj.bias', [D]],
      [p + 'ln_2.weight', [D]],
      [p + 'ln_2.bias', [D]],
      [p + 'mlp.c_fc.weight', [D, F]],
      [p + 'mlp.c_fc.bias', [F]],
      [p + 'mlp.c_proj.weight', [F, D]],
      [p + 'mlp.c_proj.bias', [D]],
    );
  }
  list.push(['ln_f.weight', [D]], ['ln_f.bias', [D]]);
  return list;
}

/**
 * An F32 safetensors file of GPT-2's tensors for `config`, each filled by
 * fill(name, Float32Array) (zeros if omitted).
 */
export function gpt2Safetensors(config, fill = () => {}) {
  const header = {};
  let offset = 0;
  const tensors = gpt2Tensors(config);
  for (const [name, shape] of tensors) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const data = new Uint8Array(offset);
  for (const [name] of tensors) {
    const [begin, end] = header[name].data_offsets;
    fill(name, new Float32Array(data.buffer, begin, (end - begin) / 4));
  }
  return joinSafetensors(header, data);
}
