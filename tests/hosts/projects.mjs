// The course projects of the hosts layer, each written the way its framework's
// documentation starts one, with nothing for attention-lab but the import and the
// line the README's table gives for that host: one
// page with the Basics, GloVe and NMT lessons, the model chapter opening a GPT-2
// folder the site serves (`model-src`), and a heatmap filled by the page's own
// code through the API (one module, one wasm instance).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/gpt2', import.meta.url));
/** Where each project serves its static files from: the model folder goes there. */
export const MODEL_DIR = 'models/tiny/';

export const LESSONS = `<attention-lesson chapter="basics"></attention-lesson>
<attention-lesson chapter="glove"></attention-lesson>
<attention-lesson chapter="nmt"></attention-lesson>
<attention-lesson chapter="model" model-src="${MODEL_DIR}"></attention-lesson>
<attention-heatmap id="h" label="weighted annotations"></attention-heatmap>`;

// The page's own code: the API and the elements share one module (one wasm instance).
const MAIN = `import { loadAttention, Matrix } from 'attention-lab';
import { loadAttention as elementsApi } from 'attention-lab/elements';
Promise.all([loadAttention(), elementsApi()]).then(([a, b]) => {
  const m = a.scaleRows([0.5, 0.5], [[1, 2, 3], [4, 5, 6]]);
  document.getElementById('h').matrix = m;
  document.body.dataset.shared = String(a === b && m instanceof Matrix);
});
`;

const HEAD = '<meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">';
const page = (head, body = LESSONS) =>
  `<!doctype html><html><head>${HEAD}\n${head}</head>\n<body>\n<h1>Course page</h1>\n${body}\n</body></html>\n`;
// JSX (React): the tags as they are; React 19 passes attributes to custom elements.
const JSX_LESSONS = `<>\n${LESSONS.replace(/^/gm, '      ')}\n    </>`;

// Docusaurus's font rule turns every .woff2 a module names into a JS module (a
// \`new URL()\` then points at that script): this plugin leaves the package's
// fonts to webpack's own asset handling. The README's recipe.
export const DOCUSAURUS_FONTS = `() => ({
    name: 'attention-lab-fonts',
    configureWebpack(config) {
      for (const rule of config.module.rules)
        if (String(rule.test).includes('woff')) rule.exclude = /node_modules[\\\\/]attention-lab[\\\\/]/;
      return {};
    },
  })`;

const FILES = {
  // Vite 8: an index.html and a module, no config file.
  'vite-app/index.html': page('<script type="module" src="./main.js"></script>\n'),
  'vite-app/main.js': MAIN,
  // Vite 6 and 7's dev server: the README's line (its own file, so the builds run without it).
  'vite-app/vite.dev.config.js': "export default { optimizeDeps: { exclude: ['attention-lab'] } };\n",
  // Astro: a page whose <script> Astro bundles (and the lessons in its markup).
  'astro-app/astro.config.mjs': 'export default {};\n',
  'astro-app/src/pages/index.astro': `---
---
${page(`<script>\n${MAIN}</script>\n`)}`,
  // Astro 5 runs on Vite 6, whose dev server needs the line (README): its own config file here.
  'astro-app/astro.dev.config.mjs': "export default { vite: { optimizeDeps: { exclude: ['attention-lab'] } } };\n",
  // SvelteKit 2 (adapter-static): a prerendered page that imports the course code
  // in the browser only (onMount). Vite 6 again: the dev server's line in its own file.
  'sveltekit-app/svelte.config.js': `import adapter from '@sveltejs/adapter-static';
export default { kit: { adapter: adapter() } };
`,
  'sveltekit-app/vite.config.js': `import { sveltekit } from '@sveltejs/kit/vite';
export default { plugins: [sveltekit()] };
`,
  'sveltekit-app/vite.dev.config.js': `import { sveltekit } from '@sveltejs/kit/vite';
export default { plugins: [sveltekit()], optimizeDeps: { exclude: ['attention-lab'] } };
`,
  'sveltekit-app/src/app.html': `<!doctype html>
<html lang="en"><head>${HEAD}%sveltekit.head%</head>
<body><div style="display: contents">%sveltekit.body%</div></body></html>
`,
  'sveltekit-app/src/routes/+layout.js': 'export const prerender = true;\n',
  'sveltekit-app/src/routes/+page.svelte': `<script>
  import { onMount } from 'svelte';
  onMount(() => { import('./course.js'); });
</script>

<h1>Course page</h1>
${LESSONS}
`,
  'sveltekit-app/src/routes/course.js': MAIN,
  // Docusaurus 3: the classic preset with docs and blog off, one React page that
  // imports the course code in the browser (useEffect).
  'docusaurus-app/docusaurus.config.js': `export default {
  title: 'Course',
  url: 'http://localhost',
  baseUrl: '/',
  favicon: 'data:,',
  presets: [['classic', { docs: false, blog: false }]],
  plugins: [${DOCUSAURUS_FONTS}],
};
`,
  'docusaurus-app/src/pages/index.js': `import { useEffect } from 'react';
import Layout from '@theme/Layout';
export default function Home() {
  useEffect(() => {
    import('../course.js');
  }, []);
  return (
    <Layout title="Course">
      <h1>Course page</h1>
      ${JSX_LESSONS}
    </Layout>
  );
}
`,
  'docusaurus-app/src/course.js': MAIN,
};

// Each project's folder of files served as they are.
const STATIC = {
  'vite-app': 'public',
  'astro-app': 'public',
  'sveltekit-app': 'static',
  'docusaurus-app': 'static',
};

/** Writes the projects into `dir`, the model folder in each one's static files. */
export function writeProjects(dir) {
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  for (const [app, folder] of Object.entries(STATIC))
    for (const name of ['config.json', 'model.safetensors', 'tokenizer.json'])
      cpSync(join(FIXTURE, name), join(dir, app, folder, MODEL_DIR, name));
}
