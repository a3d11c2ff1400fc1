// The BERT fixture folder (tests/fixtures/bert/, written by its make.py) as openModel's files.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BERT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bert');

/** config.json, model.safetensors and vocab.txt, fresh bytes on every call. */
export const bertFiles = () => ({
  'config.json': new Uint8Array(readFileSync(join(BERT_DIR, 'config.json'))),
  'model.safetensors': new Uint8Array(readFileSync(join(BERT_DIR, 'model.safetensors'))),
  'vocab.txt': new Uint8Array(readFileSync(join(BERT_DIR, 'vocab.txt'))),
});
