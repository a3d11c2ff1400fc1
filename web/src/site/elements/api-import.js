// 'attention-lab' for the classic elements script (dist/classic/attention-lab-elements.js):
// the classic API (window.AttentionLab, dist/classic/attention-lab.js) when the
// page loaded it, so the page and the lessons share one wasm instance; else the
// package's ES module (dist/lib/index.js), loaded with import(), which classic
// scripts may call (the package holds no extra copy of the wasm). Without the
// trainers: the training engine loads them (a.loadTrainers()).
let api;

export function loadAttention() {
  const classic = globalThis.AttentionLab;
  // Run by the ES module elements: their API module (elements/module-host.js).
  const host = globalThis.attentionLabElementsHost;
  api ??= host
    ? host.api().then((m) => m.loadAttention({ trainers: false }))
    : typeof classic?.loadAttention === 'function'
      ? classic.loadAttention({ trainers: false })
      : import(/* webpackIgnore: true */ new URL('../lib/index.js', import.meta.url).href).then((m) =>
          m.loadAttention({ trainers: false }),
        );
  return api;
}
