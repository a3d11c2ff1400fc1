// Banner of the classic API script (dist/classic/attention-lab.js, built by
// build-web.mjs): how it loads the parts it keeps out of its first load, each a
// data script beside its own address (dist/classic/, or the site's copy in
// dist/site/) with its wasm module: the model reader (openModel) and the
// trainers (loadTrainers). Classic scripts load from file:// too, where import()
// of a module is refused. Elsewhere (no script element: Node, a worker) the
// part's ES module is imported; with `importOnError`, also when nothing loads
// beside the script (a bundler's bundle).
/* global __attentionLabScript, document */
/* exported __attentionLabLoadModel, __attentionLabLoadTrainers */
var __attentionLabParts = {};
function __attentionLabLoadPart(key, file, importModule, importOnError) {
  var data = globalThis.attentionLabData;
  if (data && data[key]) return Promise.resolve(data[key]);
  if (!__attentionLabScript) return importModule();
  __attentionLabParts[key] =
    __attentionLabParts[key] ||
    new Promise(function (resolve, reject) {
      var url = new URL(file, __attentionLabScript).href;
      var script = document.createElement('script');
      script.src = url;
      script.onload = function () {
        script.remove();
        var value = globalThis.attentionLabData && globalThis.attentionLabData[key];
        if (value) resolve(value);
        else reject(new Error('attention-lab: ' + url + ' did not define ' + key));
      };
      script.onerror = function () {
        script.remove();
        __attentionLabParts[key] = undefined; // a later call tries again
        var fail = function () {
          reject(new Error('attention-lab: cannot load ' + url));
        };
        if (importOnError) importModule().then(resolve, fail);
        else fail();
      };
      document.head.append(script);
    });
  return __attentionLabParts[key];
}

// The two parts. The imports stay in this banner, outside what esbuild bundles:
// a path from dist/classic/ that Node and bundlers resolve.
function __attentionLabLoadModel() {
  return __attentionLabLoadPart('__MODEL_DATA_KEY__', 'attention-lab-model.js', function () {
    return import('../lib/model/open.js');
  });
}
function __attentionLabLoadTrainers() {
  return __attentionLabLoadPart(
    '__TRAINERS_DATA_KEY__',
    'attention-lab-trainers.js',
    function () {
      return import('../lib/trainers.js');
    },
    true,
  );
}
