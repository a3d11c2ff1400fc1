// One-file lessons: each chapter of the built site (dist/site) as one HTML file with
// everything it loads inlined (scripts, styles, KaTeX's fonts, the wasm binaries, the
// checkpoints), for file://, a course platform's upload, an H5P Iframe Embedder
// package or <iframe sandbox="allow-scripts">. The file opens its chapter in embed
// mode (no contents list; its height posted to the embedding page).
//   node scripts/build-lessons.mjs [outDir]   (npm run build:lessons: dist/lessons/)
// Not in the npm package: together they are several times its 4 MB budget.
//
// The site's data scripts (data-script.js) are looked up by key before any file is
// fetched, so inlining them is enough. The chapter scripts read the shell's modules
// (app.js) when they run, so each is inlined inside a getter of its key (lazyScript).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chapterMetas } from './chapters.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const site = join(root, 'dist', 'site');
const outDir = process.argv[2] ?? join(root, 'dist', 'lessons');

// Beyond the API and its core: the data scripts each chapter loads (app.js, engine-connection.js).
const TRAINING = ['attention-lab-trainers.js', 'wasm/trainer_core.wasm.js', 'nmt-worker-source.js'];
const PARTS = {
  nmt: [...TRAINING, 'nmt-checkpoint.js'],
  trained: [...TRAINING, 'transformer-checkpoint.js'],
  model: ['attention-lab-model.js', 'wasm/model/model_core.wasm.js', 'gpt2-demo.js'],
};
// The site's GloVe chapter fetches its vectors and reads a reader's own file in a
// worker file: its lesson gets the vectors as a data: URL (fetch() reads it from
// file:// and in a sandbox) and no worker (the own-file step reads on the page).
const VECTORS = 'glove.6B.100d.14k.bin';

const read = (file) => readFileSync(join(site, file), 'utf8');

/** `text` inside a <script> element; throws on the sequences that would end or bend it. */
function scriptText(text, file) {
  if (/<\/script|<!--/i.test(text)) throw new Error(`build-lessons: ${file} holds </script or <!--`);
  return text;
}

/** A <style> with the stylesheet `file`, KaTeX's fonts as data: URLs. */
function style(file) {
  let css = read(file);
  if (file.endsWith('katex.min.css'))
    css = css.replace(
      /url\((fonts\/[\w-]+\.woff2)\) format\("woff2"\),url\(\.\.\/\.\.\/\.\.\/elements\/fonts\/[\w-]+\.woff2\) format\("woff2"\)/g,
      (_, font) =>
        `url(data:font/woff2;base64,${readFileSync(join(site, 'vendor/katex', font)).toString('base64')}) format("woff2")`,
    );
  const left = css.match(/url\((?!data:|#)[^)]*\)/g);
  if (left) throw new Error(`build-lessons: ${file} still names ${left.join(', ')}`);
  if (/<\/style/i.test(css)) throw new Error(`build-lessons: ${file} holds </style`);
  return `<style>${css}</style>`;
}

/**
 * Chapter script `file` (data key `key`), run when its key is first looked up: the
 * lookup gets a promise of the value (data-script.js resolves with it), settled once
 * the code on the stack is done (app.js looks the chapter up before it registers the
 * modules the chapter reads).
 */
function lazyScript(key, file) {
  const k = JSON.stringify(key);
  return (
    `<script>(function (data) {\n` +
    `  var value;\n` +
    `  Object.defineProperty(data, ${k}, { configurable: true, enumerable: true, get: function () {\n` +
    `    value = value || Promise.resolve().then(function () {\n` +
    `      delete data[${k}];\n` +
    `      (function () {\n${scriptText(read(file), file)}\n      })();\n` +
    `      return data[${k}];\n` +
    `    });\n` +
    `    return value;\n` +
    `  } });\n` +
    `})(globalThis.attentionLabData = globalThis.attentionLabData || {});</script>`
  );
}

/** app.js with the GloVe assets above (throws where app.js no longer names them as expected). */
function withInlineVectors(app) {
  const vectors = `data:application/octet-stream;base64,${readFileSync(join(site, 'embeddings', VECTORS)).toString('base64')}`;
  const file = VECTORS.replaceAll('.', '\\.');
  const assets = new RegExp(
    `vectors:"embeddings/${file}",vectorsFallback:"\\.\\./lib/embeddings/${file}",gloveWorker:\\(\\)=>new Worker\\([\\w$]+\\)`,
    'g',
  );
  if (app.match(assets)?.length !== 1)
    throw new Error('build-lessons: app.js no longer names the GloVe assets as expected');
  return app.replace(assets, () => `vectors:${JSON.stringify(vectors)},gloveWorker:null`);
}

/** The one-file lesson of chapter `id`. */
function lesson(id, title) {
  let html = read('index.html');
  html = html.replace(/<link rel="stylesheet" href="([^"]+)" \/>/g, (_, file) => style(file));
  html = html.replace(
    /<link rel="icon" href="favicon\.svg" type="image\/svg\+xml" \/>/,
    `<link rel="icon" href="data:image/svg+xml;base64,${readFileSync(join(site, 'favicon.svg')).toString('base64')}" />`,
  );
  const text = title.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${text} · attention-lab</title>`);
  html = html.replace(/<a href="THIRD-PARTY-NOTICES\.txt">/, '<a href="#third-party-notices">');
  const app = '<script src="app.js" defer></script>';
  if (!html.includes(app)) throw new Error('build-lessons: index.html no longer loads app.js as expected');
  html = html.replace(app, '');
  // This chapter in embed mode, keeping what the host put in the hash (origin=, palette=).
  const hash =
    `(function () { var h = location.hash.replace(/^#/, ''); if (/(^|&)chapter=/.test(h)) return;\n` +
    `  var want = '#' + (h ? h + '&' : '') + 'chapter=${id}&embed=1';\n` +
    `  try { history.replaceState(history.state, '', want); } catch (e) { location.hash = want; } })();`;
  const eager = ['attention-lab.js', 'wasm/attention_core.wasm.js', ...(PARTS[id] ?? [])];
  const scripts = [
    `<script>${hash}</script>`,
    ...eager.map((file) => `<script>${scriptText(read(file), file)}</script>`),
    lazyScript('chapters:shared', 'chapters/shared.js'),
    lazyScript(`chapter:${id}`, `chapters/${id}.js`),
    `<script>${scriptText(id === 'glove' ? withInlineVectors(read('app.js')) : read('app.js'), 'app.js')}</script>`,
    `<script type="text/plain" id="third-party-notices">\n${scriptText(read('THIRD-PARTY-NOTICES.txt'), 'notices')}</script>`,
  ];
  if (!html.includes('</body>')) throw new Error('build-lessons: index.html has no </body>');
  return html.replace('</body>', () => `${scripts.join('\n')}\n</body>`);
}

mkdirSync(outDir, { recursive: true });
const written = [];
for (const { id, title } of await chapterMetas()) {
  const html = lesson(id, title);
  writeFileSync(join(outDir, `${id}.html`), html);
  written.push(`${id} ${(html.length / 1e6).toFixed(2)} MB`);
}
console.log(`build-lessons: ${outDir}: ${written.join(', ')}`);
