// Every import() in the built package names its file literally, so that every
// bundler and dev server follows it with no configuration (a variable path is
// left alone by them: the model reader was a 404 in Vite). The exceptions are
// meant to be left alone: Node's own modules (node:fs/promises, read by the API
// in Node only), the notebook widget's elements URL (the notebook gives it at run
// time), a literal file resolved against a module's own address (new URL('./x', …)),
// Emscripten's pthread worker, which imports the module its page names, and the
// classic bundles' threaded model module, imported from the absolute URL a page
// sets (globalThis.attentionLabThreadedCore: the site's model worker).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const FOLDERS = ['lib', 'elements', 'classic', 'site'];

/** Each `import(<not a string literal>)` in the built files: { file, argument }. */
function variableImports() {
  const found = [];
  for (const folder of FOLDERS)
    for (const name of readdirSync(join(DIST, folder), { recursive: true })) {
      if (!/\.m?js$/.test(name)) continue;
      const file = `${folder}/${name}`;
      const text = readFileSync(join(DIST, file), 'utf8');
      for (const match of text.matchAll(/(?<![\w$.])import\(\s*(?:\/\*.*?\*\/\s*)*([^'"`\s)][^)]{0,60})\)/g))
        found.push({ file, argument: match[1], text });
    }
  return found;
}

/** Whether identifier `name` is bound to globalThis.attentionLabThreadedCore in `text` (scripts/build-web.mjs). */
const threadedCoreUrl = (name, text) =>
  /^[\w$]+$/.test(name) &&
  new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}\\s*=\\s*globalThis\\.attentionLabThreadedCore\\b`).test(text);

/** Whether identifier `name` is bound to a "node:…" string in `text` (the Node-only reads). */
const nodeModule = (name, text) =>
  /^[\w$]+$/.test(name) && new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}\\s*=\\s*\\\\?["']node:`).test(text); // (\\" in a worker's source text)

test('the built package imports no variable path: only literal import()s, besides the named exceptions', () => {
  const all = variableImports();
  const left = all.filter(
    ({ file, argument, text }) =>
      !nodeModule(argument, text) &&
      !threadedCoreUrl(argument, text) &&
      !/^new URL\(\s*["'][^"']+["']\s*,/.test(argument) &&
      // the widget imports the elements from the URL the notebook sets (elements_url)
      !(file === 'elements/anywidget.js' && text.includes('elements_url')) &&
      // Emscripten's pthread worker imports the threaded module from the URL its page posts
      !(file === 'lib/model/model_core_threads.worker.js' && argument === 'e.data.urlOrBlob'),
  );
  assert.deepEqual(
    left.map(({ file, argument }) => `${file}: import(${argument})`),
    [],
  );
  // The scanner sees them: the Node-only reads are in the API (and the bundles that hold it).
  assert.ok(
    all.some(({ file }) => file === 'lib/embeddings.js'),
    all.map(({ file }) => file).join(', '),
  );
});

test('the model reader and the trainers load by literal import() from the API and the classic script', () => {
  const api = readFileSync(join(DIST, 'lib/index.js'), 'utf8');
  assert.match(api, /import\(["']\.\/model\/open\.js["']\)/);
  assert.match(api, /import\(["']\.\/trainers\.js["']\)/);
  const classic = readFileSync(join(DIST, 'classic/attention-lab.js'), 'utf8');
  assert.match(classic, /import\(["']\.\.\/lib\/model\/open\.js["']\)/);
  assert.match(classic, /import\(["']\.\.\/lib\/trainers\.js["']\)/);
});
