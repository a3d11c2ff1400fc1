// The model chapter's built-in demo models as data scripts, loaded only when the
// chapter opens (web/src/site/data-script.js: works from file:// too):
//   globalThis.attentionLabData['gpt2-demo'] = { 'config.json': text, 'tokenizer.json': text,
//                                                'model.safetensors': base64 }
// and likewise 'llama-demo'. gpt2-demo: web/assets/gpt2-demo/, trained by
// tests/fixtures/make_gpt2_demo.py; llama-demo: web/assets/llama-demo/, by
// tests/fixtures/make_llama_demo.py. Called by scripts/build-web.mjs for dist/site
// (both) and dist/elements (the GPT-2 demo: the package's size stays in bounds).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planesExpression } from './build-nmt-worker.mjs';

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'assets');
const DEMOS = {
  'gpt2-demo': 'The model chapter’s demo GPT-2: /usr/bin/python3 tests/fixtures/make_gpt2_demo.py',
  'llama-demo': 'The model chapter’s demo Llama: /usr/bin/python3 tests/fixtures/make_llama_demo.py',
};

export function writeDemoModel(dir, names = ['gpt2-demo']) {
  for (const name of names) {
    const folder = join(assets, name);
    const texts = {
      'config.json': readFileSync(join(folder, 'config.json'), 'utf8'),
      'tokenizer.json': readFileSync(join(folder, 'tokenizer.json'), 'utf8'),
    };
    // The weights' bytes in planes (planesExpression: ~4% smaller packed), the value as before.
    const weights = planesExpression(readFileSync(join(folder, 'model.safetensors')).toString('base64'));
    writeFileSync(
      join(dir, `${name}.js`),
      `// ${DEMOS[name]} (the weights' bytes in four planes: build-nmt-worker.mjs)\n` +
        `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(name)}] = ` +
        `Object.assign(${JSON.stringify(texts)}, { "model.safetensors": ${weights} });\n`,
    );
  }
}
