// The tutorial page: contents bar, chapter routing from the URL hash, and the
// "step through" mode (one step at a time, arrow keys or buttons).
import { loadAttention } from 'attention-lab';
import { CHAPTERS, loadChapter } from './chapters/index.js';
import { loadDataScript } from './data-script.js';
import { el } from './dom.js';
import { setPaletteOverride } from './figures/heatmap.js';
import { predictPreference, savePredictPreference, setPredicting } from './predict.js';
import { focusScrollBoxes } from './scroll-focus.js';
import { installSkipLink } from './skip-link.js';
import { readHash, setHashValue } from './url-state.js';

const contents = document.getElementById('contents');
const main = document.getElementById('chapter');
const status = document.getElementById('status');
installSkipLink(document.querySelector('.skip-link'), main);
focusScrollBoxes(main);

let api = null;
let current = null; // { id, root, steps }

function chapterFromHash() {
  const id = readHash().get('chapter');
  return CHAPTERS.find((c) => c.id === id) ?? CHAPTERS[0];
}

function renderContents(activeId) {
  contents.replaceChildren(
    el('h2', { className: 'visually-hidden' }, 'Chapters'),
    el(
      'ol',
      {},
      ...CHAPTERS.map((c) =>
        el(
          'li',
          {},
          el(
            'a',
            {
              href: `#chapter=${c.id}`,
              attrs: c.id === activeId ? { 'aria-current': 'page' } : {},
              title: c.summary,
            },
            c.title,
          ),
        ),
      ),
    ),
  );
  // On a phone the contents are one row that scrolls sideways: show the current chapter in it
  // (scrollLeft, not scrollIntoView, so the page itself does not move).
  const list = contents.querySelector('ol');
  const current = contents.querySelector('a[aria-current="page"]');
  if (list.scrollWidth > list.clientWidth && current) {
    list.scrollLeft = current.offsetLeft - list.offsetLeft - 8;
  }
}

/** Points the page's oEmbed discovery link at `entry`'s file (oembed/<id>.json, built by scripts/build-oembed.mjs). */
function updateOembedLink(entry) {
  const link = document.querySelector('link[rel="alternate"][type="application/json+oembed"]');
  if (!link) return;
  link.href = new URL(`${entry.id}.json`, link.href).href; // a sibling of the default chapter's file
  link.title = `${entry.title} · attention-lab`;
}

/**
 * The chapter's assets. In the npm package the site's large assets are left out: it
 * is hosted from node_modules/attention-lab/dist/site/ and finds them in ../lib and
 * ../elements (the NMT worker there is a module worker importing ../lib, so its
 * source is tried here first and the chapter told when only the package's exists; the
 * trained-Transformer chapter uses the same worker).
 */
const SITE_GLOVE_WORKER = 'glove-worker.js';

async function siteAssets(id) {
  const assets = {
    vectors: 'embeddings/glove.6B.100d.14k.bin',
    vectorsFallback: '../lib/embeddings/glove.6B.100d.14k.bin',
    // A classic worker next to the page; its name in a variable, not a literal a bundler would follow.
    gloveWorker: () => new Worker(SITE_GLOVE_WORKER),
  };
  if (id === 'model') {
    // Its worker is made of the model reader's and its wasm's data scripts (lesson-kit/model-proxy.js):
    // the site's copies, then the package's (hosted from node_modules/attention-lab/dist/site/). On a
    // cross-origin isolated page it runs on threads with the package's threaded module (served
    // beside the site as npm start and npx attention-lab do; missing: one thread).
    assets.modelReader = {
      source: ['attention-lab-model.js', '../classic/attention-lab-model.js'],
      wasm: { 'wasm:model_core': ['wasm/model/model_core.wasm.js', '../lib/model/model_core.wasm.js'] },
      threadedCore: '../lib/model/model_core_threads.mjs',
    };
  }
  if (id === 'nmt' || id === 'trained') {
    try {
      await loadDataScript('nmt-worker', ['nmt-worker-source.js']);
      // The binaries that worker reads, from the page's data scripts (the API's core is loaded already).
      assets.nmtWorkerWasm = {
        'wasm:attention_core': ['wasm/attention_core.wasm.js'],
        'wasm:trainer_core': ['wasm/trainer_core.wasm.js'],
      };
    } catch {
      assets.nmtWorker = '../elements/lesson-worker.js';
    }
  }
  return assets;
}

let rendering = 0; // the latest renderChapter call: an older one whose chapter arrives late is dropped

/** Loads the chapter of `entry` (its own script, the first time) and renders it. */
async function renderChapter(entry) {
  const token = ++rendering;
  document.title = `${entry.title} · attention-lab`;
  renderContents(entry.id);
  updateOembedLink(entry);
  let chapter;
  try {
    chapter = await loadChapter(entry);
  } catch (error) {
    if (token !== rendering) return;
    status.hidden = false;
    status.textContent = `Could not load the chapter “${entry.title}”: ${error instanceof Error ? error.message : String(error)}`;
    status.classList.add('error');
    main.replaceChildren(status);
    current = null;
    return;
  }
  const assets = await siteAssets(chapter.id);
  if (token !== rendering) return;
  status.hidden = true;
  const root = el('article', { className: 'chapter', id: `chapter-${chapter.id}`, dataset: { chapter: chapter.id } });
  setPredicting(root, predictPreference());
  main.replaceChildren(stepToolbar(), root);
  chapter.render(root, { api, assets });
  current = { id: chapter.id, root, steps: [...root.querySelectorAll('section.step')] };
  root.append(embedBox(chapter));
  current.steps.forEach((s, i) => {
    s.dataset.step = String(i + 1);
    s.id = `step-${chapter.id}-${i + 1}`;
  });
  applyStepMode();
  scrollToLinkedStep();
}

// ---- step-through mode ------------------------------------------------------

const toolbar = {
  all: null,
  through: null,
  prev: null,
  next: null,
  position: null,
};

function stepToolbar() {
  toolbar.all = el('button', { type: 'button', on: { click: () => setMode('all') } }, 'All steps');
  toolbar.through = el('button', { type: 'button', on: { click: () => setMode('steps') } }, 'Step through');
  toolbar.prev = el(
    'button',
    { type: 'button', on: { click: () => move(-1) }, attrs: { 'aria-label': 'previous step' } },
    '← Previous',
  );
  toolbar.next = el(
    'button',
    { type: 'button', on: { click: () => move(1) }, attrs: { 'aria-label': 'next step' } },
    'Next →',
  );
  toolbar.position = el('span', { className: 'position', attrs: { 'aria-live': 'polite' } });
  const predictBox = el('input', {
    type: 'checkbox',
    checked: predictPreference(),
    on: {
      change: () => {
        savePredictPreference(predictBox.checked);
        if (current) setPredicting(current.root, predictBox.checked);
      },
    },
  });
  const predictToggle = el(
    'label',
    { className: 'predict-toggle', title: 'Ask one question per step before showing its results' },
    predictBox,
    ' Predict first',
  );
  const bar = el(
    'div',
    { className: 'step-toolbar', attrs: { role: 'toolbar', 'aria-label': 'reading mode' } },
    el('div', { className: 'mode-switch' }, toolbar.all, toolbar.through),
    el('div', { className: 'step-nav' }, toolbar.prev, toolbar.position, toolbar.next),
    predictToggle,
  );
  toolbarHeight.disconnect();
  toolbarHeight.observe(bar);
  return bar;
}

// A step scrolled to (Next, a link) stops below the sticky toolbar, however many rows the
// toolbar wraps to on a narrow screen: its measured height is the steps' scroll margin
// (--al-toolbar-height in components.css), set through the CSSOM (allowed under a strict CSP).
const toolbarHeight = new ResizeObserver(([entry]) => {
  const height = Math.ceil(entry.borderBoxSize?.[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
  if (height > 0) main.style.setProperty('--al-toolbar-height', `${height}px`);
});

function stepState() {
  const hash = readHash();
  const mode = hash.get('mode') === 'steps' ? 'steps' : 'all';
  const count = current?.steps.length ?? 0;
  const step = Math.min(Math.max(1, Number(hash.get('step')) || 1), Math.max(1, count));
  return { mode, step, count };
}

function applyStepMode() {
  if (!current) return;
  const { mode, step, count } = stepState();
  current.steps.forEach((s, i) => {
    s.hidden = mode === 'steps' && i + 1 !== step;
  });
  toolbar.all.setAttribute('aria-pressed', String(mode === 'all'));
  toolbar.through.setAttribute('aria-pressed', String(mode === 'steps'));
  toolbar.prev.hidden = toolbar.next.hidden = toolbar.position.hidden = mode !== 'steps';
  toolbar.prev.disabled = step <= 1;
  toolbar.next.disabled = step >= count;
  toolbar.position.textContent = `Step ${step} of ${count}`;
}

/**
 * A link to one step in "All steps" mode (#chapter=basics&step=3) scrolls to it; its heading
 * stops below the sticky toolbar (the scroll margin of components.css). In step-through mode
 * that step is the only one shown.
 */
function scrollToLinkedStep() {
  const { mode, step } = stepState();
  if (mode === 'all' && readHash().get('step')) current?.steps[step - 1]?.scrollIntoView({ block: 'start' });
}

function setMode(mode) {
  setHashValue('mode', mode === 'steps' ? 'steps' : null);
  if (mode === 'steps' && !readHash().get('step')) setHashValue('step', '1');
  applyStepMode();
}

function move(delta) {
  const { mode, step, count } = stepState();
  if (mode !== 'steps') return;
  const next = Math.min(Math.max(1, step + delta), count);
  setHashValue('step', String(next));
  applyStepMode();
  current.steps[next - 1]?.scrollIntoView({ block: 'start' });
}

document.addEventListener('keydown', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === 'ArrowRight') move(1);
  else if (event.key === 'ArrowLeft') move(-1);
});

window.addEventListener('hashchange', () => {
  if (!api) return;
  const entry = chapterFromHash();
  if (entry.id !== current?.id) {
    renderChapter(entry);
  } else {
    applyStepMode();
    scrollToLinkedStep();
  }
});

// ---- embedding -------------------------------------------------------------

/** A copy-paste snippet that embeds this chapter in another page. */
function embedBox(chapter) {
  const base = location.href.split('#')[0];
  const snippet = `<iframe src="${base}#chapter=${chapter.id}&embed=1" title="attention-lab: ${chapter.title}"
  style="width:100%;border:0" loading="lazy"></iframe>
<script>
  // Grow the iframe to the chapter's height (attention-lab posts it on every change).
  addEventListener('message', (e) => {
    if (e.data && e.data.type === 'attention-lab:resize')
      for (const f of document.querySelectorAll('iframe'))
        if (f.contentWindow === e.source) f.style.height = e.data.height + 'px';
  });
</script>`;
  return el(
    'details',
    { className: 'embed-box' },
    el('summary', {}, 'Embed this chapter in your course page'),
    el(
      'p',
      {},
      'Paste this where the lesson should appear (replace the address with where you host dist/site). Inputs typed by your readers stay in the iframe.',
    ),
    el('textarea', { readOnly: true, rows: 10, value: snippet, attrs: { 'aria-label': 'embed snippet' } }),
  );
}

// Embed mode (#…&embed=1): the chapter alone, reporting its content height to
// the embedding page on every change, shrinking as well as growing. Message
// (documented in README.md, "Embed in an iframe"):
//   { type: 'attention-lab:resize', version: 1, chapter: 'basics', height: 876 }
// posted only to window.parent, restricted to its origin when known (the
// origin= hash key, else location.ancestorOrigins / document.referrer).
const embedded = readHash().get('embed') === '1';

/** The embedding page's origin, or '*' when the browser does not tell it (the message holds only a height). */
function parentOrigin() {
  const candidates = [readHash().get('origin'), globalThis.location.ancestorOrigins?.[0], document.referrer];
  for (const text of candidates) {
    try {
      // javascript:, data: and file: URLs have the opaque origin "null", which postMessage refuses (it throws).
      const origin = text ? new URL(text).origin : 'null';
      if (origin !== 'null') return origin;
    } catch {
      // not a URL: try the next
    }
  }
  return '*';
}

/** Height of the content itself: not scrollHeight, which inside an iframe is never below the iframe's own height. */
const contentHeight = () => Math.ceil(main.getBoundingClientRect().bottom + window.scrollY);

if (embedded) {
  document.documentElement.classList.add('embed');
  const origin = parentOrigin();
  let last = 0;
  const report = () => {
    const height = contentHeight();
    if (height === last || window.parent === window) return;
    last = height;
    window.parent.postMessage(
      { type: 'attention-lab:resize', version: 1, chapter: current?.id ?? null, height },
      origin,
    );
  };
  new ResizeObserver(report).observe(main);
}

// ---- colour-blind-safe palette ----------------------------------------------

function paletteToggle() {
  const box = el('input', {
    type: 'checkbox',
    checked: readHash().get('palette') === 'viridis',
    on: {
      change: () => {
        setHashValue('palette', box.checked ? 'viridis' : null);
        setPaletteOverride(box.checked ? 'viridis' : null);
      },
    },
  });
  return el('label', {}, box, ' Colour-blind-safe colours');
}

// ---- start ----------------------------------------------------------------

document.querySelector('.site-header')?.append(el('div', { className: 'site-settings' }, paletteToggle()));
setPaletteOverride(readHash().get('palette') === 'viridis' ? 'viridis' : null);
renderContents(chapterFromHash().id);
updateOembedLink(chapterFromHash());
const firstChapter = loadChapter(chapterFromHash()).catch(() => null); // fetched while the wasm core starts
loadAttention()
  .then(async (loaded) => {
    api = loaded;
    await firstChapter;
    await renderChapter(chapterFromHash());
    document.documentElement.dataset.ready = 'true';
  })
  .catch((error) => {
    status.textContent = `Could not start the WebAssembly core: ${error instanceof Error ? error.message : String(error)}`;
    status.classList.add('error');
  });
