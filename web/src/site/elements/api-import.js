// 'attention-lab' for the classic elements script (dist/classic/attention-lab-elements.js):
// the ES module elements' API module when they run it (their host); else the classic
// API (window.AttentionLab, dist/classic/attention-lab.js) when the page loaded it, so
// the page and the lessons share one wasm instance; else the package's ES module
// (dist/lib/index.js), through the module script dist/lib/as-data-script.js, which
// stores it under attentionLabData (the package holds no extra copy of the wasm).
// No import() here: bundlers that take this script in for the ES module elements
// (Parcel) rewrite an import() of a computed URL into code that fails. Without the
// trainers: the training engine loads them (a.loadTrainers()).
let api;

/** The key dist/lib/as-data-script.js stores the API module under (scripts/build-web.mjs writes it). */
const MODULE_KEY = 'attention-lab-module';

/** dist/lib/index.js's exports, loaded by a module script beside it (same URL: the page's own instance). */
function apiModule() {
  const data = (globalThis.attentionLabData ??= {});
  if (data[MODULE_KEY]) return Promise.resolve(data[MODULE_KEY]);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = new URL('../lib/as-data-script.js', import.meta.url).href;
    script.onload = () => {
      script.remove();
      if (data[MODULE_KEY]) resolve(data[MODULE_KEY]);
      else reject(new Error(`${script.src} did not define the API`));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`cannot load ${script.src}`));
    };
    document.head.append(script);
  });
}

export function loadAttention() {
  const classic = globalThis.AttentionLab;
  // Run by the ES module elements: their API module (elements/module-host.js).
  const host = globalThis.attentionLabElementsHost;
  api ??= host
    ? host.api().then((m) => m.loadAttention({ trainers: false }))
    : typeof classic?.loadAttention === 'function'
      ? classic.loadAttention({ trainers: false })
      : apiModule().then((m) => m.loadAttention({ trainers: false }));
  return api;
}
