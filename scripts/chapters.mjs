// The chapters, discovered: every web/src/site/chapters/<id>/meta.js (the glob
// chapters/*/meta.js), in the order of their `order`. The builds, the oEmbed files,
// the formula prerender and every test that iterates chapters read them here, so
// adding a chapter edits no shared list (web/src/site/chapters/README.md).
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folder of the chapter folders (absolute). */
export const CHAPTERS_DIR = join(root, 'web/src/site/chapters');
/** The specifier of the generated chapter list (chapters/index.js imports it; chapterListPlugin serves it). */
export const CHAPTER_LIST = 'attention-lab:chapters';

/** The chapter folders that hold a meta.js, by name (unordered). */
function chapterFolders() {
  return readdirSync(CHAPTERS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(CHAPTERS_DIR, d.name, 'meta.js')))
    .map((d) => d.name);
}

/**
 * Every chapter's meta ({ id, title, summary, order }), sorted by order. Throws
 * when a meta is malformed, its id is not its folder's name, or two share an order.
 */
export async function chapterMetas() {
  const metas = [];
  for (const folder of chapterFolders()) {
    const file = join(CHAPTERS_DIR, folder, 'meta.js');
    const { default: meta } = await import(pathToFileURL(file).href);
    const where = `chapters/${folder}/meta.js`;
    if (meta?.id !== folder) throw new Error(`${where}: id "${meta?.id}" is not the folder's name "${folder}"`);
    for (const key of ['title', 'summary'])
      if (typeof meta[key] !== 'string' || meta[key].trim() === '') throw new Error(`${where}: ${key} must be text`);
    if (!Number.isFinite(meta.order)) throw new Error(`${where}: order must be a number`);
    metas.push(meta);
  }
  metas.sort((a, b) => a.order - b.order);
  for (let i = 1; i < metas.length; i++)
    if (metas[i].order === metas[i - 1].order)
      throw new Error(`chapters ${metas[i - 1].id} and ${metas[i].id} share order ${metas[i].order}`);
  if (metas.length === 0) throw new Error(`no chapters/*/meta.js under ${CHAPTERS_DIR}`);
  return metas;
}

/**
 * The source of the chapter list module: the metas imported statically (the
 * contents bar needs them at once) and one literal `import('./<id>/chapter.js')`
 * each, so bundlers split a chunk per chapter (and build-site.mjs can turn each
 * into an injected classic script). Resolved from CHAPTERS_DIR.
 */
export function chapterListSource(metas) {
  return (
    metas.map(({ id }, i) => `import meta${i} from './${id}/meta.js';\n`).join('') +
    `export default [\n` +
    metas.map(({ id }, i) => `  { ...meta${i}, load: () => import('./${id}/chapter.js') },\n`).join('') +
    `];\n`
  );
}

/** The `import('./<id>/chapter.js')` literals of chapterListSource, with the id as group 1. */
export const CHAPTER_IMPORT = /import\('\.\/([\w-]+)\/chapter\.js'\)/g;

/**
 * esbuild plugin: serves CHAPTER_LIST, generated from the metas on every build;
 * `transform(source)` may rewrite it (the site's classic scripts do).
 */
export const chapterListPlugin = (transform = (source) => source) => ({
  name: 'attention-lab-chapters',
  setup(b) {
    b.onResolve({ filter: /^attention-lab:chapters$/ }, () => ({
      path: 'chapters',
      namespace: 'attention-lab-chapters',
    }));
    b.onLoad({ filter: /.*/, namespace: 'attention-lab-chapters' }, async () => ({
      contents: transform(chapterListSource(await chapterMetas())),
      loader: 'js',
      resolveDir: CHAPTERS_DIR,
      watchFiles: chapterFolders().map((f) => join(CHAPTERS_DIR, f, 'meta.js')),
    }));
    // A split chunk is named after its entry's file: every view is chapter.js, so the
    // list's import('./<id>/chapter.js') goes through a stub named <id>.js that
    // re-exports it, and the chunk reads chunks/<id>-<hash>.js.
    b.onResolve({ filter: /^\.\/[\w-]+\/chapter\.js$/, namespace: 'attention-lab-chapters' }, ({ path, kind }) =>
      kind === 'dynamic-import'
        ? { path: join(CHAPTERS_DIR, `${path.split('/')[1]}.js`), namespace: 'attention-lab-chapter' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'attention-lab-chapter' }, ({ path }) => ({
      contents: `export { default } from './${basename(path, '.js')}/chapter.js';\n`,
      loader: 'js',
      resolveDir: CHAPTERS_DIR,
    }));
  },
});

/** The TypeScript union of the chapter ids, e.g. `'basics' | 'qkv'` (the AttentionChapter type). */
export const chapterUnion = (metas) => metas.map(({ id }) => `'${id}'`).join(' | ');
