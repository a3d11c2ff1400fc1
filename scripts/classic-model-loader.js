// Banner of the classic API script (dist/classic/attention-lab.js, built by
// build-web.mjs): how its openModel loads the GPT-2 reader and wasm module.
// A page's classic script injects the data script attention-lab-model.js from
// beside its own address (dist/classic/, or the site's copy in dist/site/):
// classic scripts load from file:// too, where import() of a module is refused.
// Elsewhere (no script element: Node, a worker) it imports the module as before.
/* global __attentionLabScript, document */
/* exported __attentionLabLoadModel */
var __attentionLabModelLoading;
function __attentionLabLoadModel(modulePath) {
  var key = '__MODEL_DATA_KEY__';
  var data = globalThis.attentionLabData;
  if (data && data[key]) return Promise.resolve(data[key]);
  if (!__attentionLabScript) return import(modulePath);
  __attentionLabModelLoading =
    __attentionLabModelLoading ||
    new Promise(function (resolve, reject) {
      var url = new URL('attention-lab-model.js', __attentionLabScript).href;
      var script = document.createElement('script');
      script.src = url;
      script.onload = function () {
        script.remove();
        var value = globalThis.attentionLabData && globalThis.attentionLabData[key];
        if (value) resolve(value);
        else reject(new Error('attention-lab: ' + url + ' did not define the GPT-2 reader'));
      };
      script.onerror = function () {
        script.remove();
        __attentionLabModelLoading = undefined; // a later call tries again
        reject(new Error('attention-lab: cannot load ' + url));
      };
      document.head.append(script);
    });
  return __attentionLabModelLoading;
}
