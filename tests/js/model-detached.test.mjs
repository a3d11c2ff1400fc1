// Errors that name the call (issue 34, item 6): bytes whose ArrayBuffer was detached
// (transferred to a worker, structuredClone's transfer), passed as any file of openModel,
// are a TypeError naming openModel and the file, never V8's raw "Cannot perform Construct
// on a detached ArrayBuffer"; detached after openModel, explainHead names the file too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, fixtureFiles } from './gpt2-files.js';

const BERT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bert');
const bertBytes = (name) => new Uint8Array(readFileSync(join(BERT_DIR, name)));
const a = await loadAttention();

/** `bytes` with its ArrayBuffer detached (transferred away). */
function detach(bytes) {
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

const escape = (s) => s.replace(/[.[\]']/g, '\\$&');

for (const [family, folder] of [
  ['GPT-2', () => fixtureFiles()],
  [
    'BERT',
    () => ({
      'config.json': bertBytes('config.json'),
      'model.safetensors': bertBytes('model.safetensors'),
      'vocab.txt': bertBytes('vocab.txt'),
    }),
  ],
]) {
  for (const name of Object.keys(folder())) {
    for (const [how, make] of [
      ['an ArrayBuffer', (bytes) => detach(bytes).buffer, 'is a detached ArrayBuffer'],
      ['a Uint8Array', (bytes) => detach(bytes), 'is a Uint8Array on a detached ArrayBuffer'],
      [
        'a Float32Array view',
        (bytes) => {
          const view = new Float32Array(bytes.slice(0, 8).buffer);
          detach(new Uint8Array(view.buffer));
          return view;
        },
      ],
    ]) {
      test(`${family}: files['${name}'] as ${how} on a detached buffer is a TypeError naming openModel and the file`, async () => {
        const files = folder();
        files[name] = make(files[name]);
        const error = await a.openModel(files).then(
          (m) => (m.delete(), null),
          (e) => e,
        );
        assert.ok(error, 'openModel refuses the folder');
        assert.equal(error.name, 'TypeError');
        assert.match(
          error.message,
          new RegExp(`^openModel: files${escape(`['${name}']`)} is a .*detached ArrayBuffer`),
        );
        assert.doesNotMatch(error.message, /Cannot perform/);
      });
    }
  }
}

test('the message says which: the ArrayBuffer itself, or the typed array on it', async () => {
  await assert.rejects(
    a.openModel(
      fixtureFiles('model.safetensors', { 'model.safetensors': detach(fixtureBytes('model.safetensors')).buffer }),
    ),
    {
      name: 'TypeError',
      message:
        /^openModel: files\['model\.safetensors'\] is a detached ArrayBuffer \(transferred away\): nothing left to read$/,
    },
  );
  await assert.rejects(
    a.openModel(fixtureFiles('model.safetensors', { 'config.json': detach(fixtureBytes('config.json')) })),
    {
      name: 'TypeError',
      message: /^openModel: files\['config\.json'\] is a Uint8Array on a detached ArrayBuffer/,
    },
  );
});

test('model.safetensors detached after openModel: explainHead is a RangeError naming the file', async () => {
  const bytes = fixtureBytes('model.safetensors');
  const m = await a.openModel(fixtureFiles('model.safetensors', { 'model.safetensors': bytes }));
  detach(bytes);
  await assert.rejects(m.explainHead('the cat', { layer: 0, head: 0 }), {
    name: 'RangeError',
    message:
      /^Gpt2Model\.explainHead: model\.safetensors changed since openModel: files\['model\.safetensors'\] is a Uint8Array on a detached ArrayBuffer/,
  });
  m.delete();
});
