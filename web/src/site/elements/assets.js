// The files a lesson loads besides its code (one worker module for every lesson:
// elements/lesson-worker.js), found next to the elements module
// (dist/elements) in the forms every bundler and dev server follows with no
// configuration: `new Worker(new URL('./x.js', import.meta.url), { type: 'module' })`
// literals (Vite, webpack, Parcel; Rollup with an import.meta assets plugin) and,
// for the checkpoints, import() of a module that stores the data (each is also a
// classic "data script", data-script.js), which bundlers and Vite's dependency
// pre-bundling turn into a chunk of their own, loaded when the chapter opens.
// The classic elements script (ATTENTION_LAB_CLASSIC, set by scripts/build-web.mjs)
// cannot import(): it loads the same data scripts by URL.
/* global ATTENTION_LAB_CLASSIC */

/** The classic script's assets: the data scripts by URL, next to its own address (or its host's). */
function classicAssets() {
  // Run by the ES module elements: their literals (elements/module-host.js).
  if (globalThis.attentionLabElementsHost) return globalThis.attentionLabElementsHost.assets();
  const url = (file) => new URL(file, import.meta.url).href;
  return {
    gloveWorker: () => new Worker(url('./lesson-worker.js'), { type: 'module' }),
    nmtWorker: () => new Worker(url('./lesson-worker.js'), { type: 'module' }),
    modelWorker: () => new Worker(url('./lesson-worker.js'), { type: 'module' }),
    nmtCheckpoint: url('./nmt-checkpoint.js'),
    transformerCheckpoint: url('./transformer-checkpoint.js'),
    demoModel: url('./gpt2-demo.js'),
  };
}

/** The lesson's default assets (functions run when a chapter needs them). Throws where the module has no address. */
export function packagedAssets() {
  // One statement, so that the classic build drops the import()s below: bundlers that
  // run the classic script as a module (the ES module elements do) would look for them.
  if (typeof ATTENTION_LAB_CLASSIC !== 'undefined' && ATTENTION_LAB_CLASSIC) return classicAssets();
  return {
    gloveWorker: () => new Worker(new URL('./lesson-worker.js', import.meta.url), { type: 'module' }),
    nmtWorker: () => new Worker(new URL('./lesson-worker.js', import.meta.url), { type: 'module' }),
    modelWorker: () => new Worker(new URL('./lesson-worker.js', import.meta.url), { type: 'module' }),
    nmtCheckpoint: () => import('./nmt-checkpoint.js'),
    transformerCheckpoint: () => import('./transformer-checkpoint.js'),
    demoModel: () => import('./gpt2-demo.js'),
  };
}
