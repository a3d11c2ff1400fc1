// 'attention-lab' for the classic elements script (dist/classic/attention-lab-elements.js):
// the API is the package's ES module (dist/lib/index.js), loaded with import(),
// which classic scripts may call; so a page with both the classic elements and
// the API shares one wasm file and the package holds no extra copy.
let api;

export function loadAttention() {
  api ??= import(/* webpackIgnore: true */ new URL('../lib/index.js', import.meta.url).href).then((m) =>
    m.loadAttention(),
  );
  return api;
}
