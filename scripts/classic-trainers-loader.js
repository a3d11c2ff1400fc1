// Banner of the classic API script (dist/classic/attention-lab.js, built by
// build-web.mjs): how its loadTrainers loads the trainers and their wasm module.
// Like the GPT-2 reader (classic-model-loader.js), a page's classic script injects
// the data script attention-lab-trainers.js from beside its own address, which
// works from file:// too. Elsewhere (Node, a worker), or when nothing loads there (a
// bundler's bundle), it imports the package's module: a literal path from dist/classic/,
// which Node and bundlers resolve.
/* global __attentionLabScript, document */
/* exported __attentionLabLoadTrainers */
var __attentionLabTrainersLoading;
function __attentionLabLoadTrainers() {
  var key = '__TRAINERS_DATA_KEY__';
  var data = globalThis.attentionLabData;
  if (data && data[key]) return Promise.resolve(data[key]);
  if (!__attentionLabScript) return import('../lib/trainers.js');
  __attentionLabTrainersLoading =
    __attentionLabTrainersLoading ||
    new Promise(function (resolve, reject) {
      var url = new URL('attention-lab-trainers.js', __attentionLabScript).href;
      var script = document.createElement('script');
      script.src = url;
      script.onload = function () {
        script.remove();
        var value = globalThis.attentionLabData && globalThis.attentionLabData[key];
        if (value) resolve(value);
        else reject(new Error('attention-lab: ' + url + ' did not define the trainers'));
      };
      script.onerror = function () {
        script.remove();
        __attentionLabTrainersLoading = undefined; // a later call tries again
        import('../lib/trainers.js').then(resolve, function () {
          reject(new Error('attention-lab: cannot load ' + url));
        });
      };
      document.head.append(script);
    });
  return __attentionLabTrainersLoading;
}
