// The course projects the consumer tests build: one page with a Basics, a GloVe
// and an NMT lesson and a heatmap filled by the page's own code, written for
// each host the way its documentation says (README, "Bundlers and hosts").
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const LESSONS = `<attention-lesson chapter="basics"></attention-lesson>
<attention-lesson chapter="glove"></attention-lesson>
<attention-lesson chapter="nmt"></attention-lesson>
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

const page = (head) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">\n${head}</head>\n<body>\n<h1>Course page</h1>\n${LESSONS}\n</body></html>\n`;

const FILES = {
  'app/main.js': MAIN,
  'app/index.html': page('<script type="module" src="./main.js"></script>\n'),
  // webpack: the documented minimal config; the page loads the bundle.
  'webpack.config.js': `import { fileURLToPath } from 'node:url';
export default {
  mode: 'production',
  entry: './app/main.js',
  output: { path: fileURLToPath(new URL('./webpack-dist', import.meta.url)), clean: true, publicPath: 'auto' },
  performance: { hints: false },
};
`,
  // Rollup with node-resolve (the plugin every Rollup project has for npm packages),
  // attention-lab left out of the bundle: the package's workers import its API
  // module, which a copied asset cannot (README, "Bundlers and hosts").
  'rollup.config.mjs': `import { nodeResolve } from '@rollup/plugin-node-resolve';
export default {
  input: 'app/main.js',
  output: { dir: 'rollup-dist', format: 'es' },
  external: [/^attention-lab(\\/|$)/],
  plugins: [nodeResolve({ browser: true })],
};
`,
  // Vite 6 and 7 dev servers pre-bundle dependencies into another folder, away
  // from the files the package names next to its modules (fixed in Vite 8).
  'vite.dev.config.js': "export default { optimizeDeps: { exclude: ['attention-lab'] } };\n",
  // VitePress: the elements registered in the theme, the tags in Markdown.
  'docs/.vitepress/config.mjs': `export default {
  title: 'Course',
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('attention-') } } },
  vite: { optimizeDeps: { exclude: ['attention-lab'] } }, // for vitepress dev (Vite 5)
};
`,
  'docs/.vitepress/theme/index.js': `import DefaultTheme from 'vitepress/theme';
import 'attention-lab/elements'; // also evaluated by the SSR build: defines nothing there
export default DefaultTheme;
`,
  'docs/public/favicon.ico': '', // vitepress dev ignores the head's icon link; Chromium then asks for this
  'docs/index.md': `# Attention\n\n${LESSONS.replace(/ id="h" label="weighted annotations"/, ' data="[[1,2],[3,4]]"')}\n`,
  // Next.js (App Router): a client component imports the elements and the API.
  'next-app/app/layout.js': `export const metadata = { title: 'Course', icons: { icon: 'data:,' } };
export default function RootLayout({ children }) {
  return (<html lang="en"><body>{children}</body></html>);
}
`,
  'next-app/app/page.js': `import Lessons from './lessons.js';
export default function Page() {
  return (<main><h1>Course page</h1><Lessons /></main>);
}
`,
  'next-app/app/lessons.js': `'use client';
import { useEffect } from 'react';
export default function Lessons() {
  useEffect(() => {
    // The elements need a DOM: imported in the browser only.
    import('./course.js');
  }, []);
  return (
    <>
      <attention-lesson chapter="basics"></attention-lesson>
      <attention-lesson chapter="glove"></attention-lesson>
      <attention-lesson chapter="nmt"></attention-lesson>
      <attention-heatmap id="h" label="weighted annotations"></attention-heatmap>
    </>
  );
}
`,
  'next-app/app/course.js': MAIN,
  'next-app/next.config.mjs': 'export default {};\n',
};

/** Writes the projects' sources into `dir`. */
export function writeSources(dir) {
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

/** The page of a host without a bundler: `head` loads the scripts. */
export const plainPage = page;

/** An import map naming the package's modules, served from `prefix` (the project's node_modules/attention-lab/dist). */
export const importMap = (prefix) =>
  `<script type="importmap">${JSON.stringify({
    imports: {
      'attention-lab': `${prefix}/lib/index.js`,
      'attention-lab/elements': `${prefix}/elements/attention-lab-elements.js`,
    },
  })}</script>\n`;
