// The model chapter's built-in demo GPT-2 (web/assets/gpt2-demo/, trained by
// tests/fixtures/make_gpt2_demo.py) as a data script, loaded only when the
// chapter opens (web/src/site/data-script.js: works from file:// too):
//   globalThis.attentionLabData['gpt2-demo'] = { 'config.json': text, 'tokenizer.json': text,
//                                                'model.safetensors': base64 }
// Called by scripts/build-web.mjs for dist/site and dist/elements.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataScript } from './build-nmt-worker.mjs';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'assets', 'gpt2-demo');

export function writeDemoModel(dir) {
  const value = {
    'config.json': readFileSync(join(folder, 'config.json'), 'utf8'),
    'tokenizer.json': readFileSync(join(folder, 'tokenizer.json'), 'utf8'),
    'model.safetensors': readFileSync(join(folder, 'model.safetensors')).toString('base64'),
  };
  writeFileSync(
    join(dir, 'gpt2-demo.js'),
    dataScript('gpt2-demo', value, 'The model chapter’s demo GPT-2: /usr/bin/python3 tests/fixtures/make_gpt2_demo.py'),
  );
}
