// --pre-js for the wasm module (runs inside Emscripten's module factory).
// Emscripten 3.1.6 fetch()es even its embedded data: URI before decoding it
// itself, which a strict Content-Security-Policy (connect-src / default-src)
// reports as a violation. Decode the embedded binary directly instead.
if (!Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    attentionLabWasmBytes(wasmBinaryFile)
      .then(function (bytes) {
        return WebAssembly.instantiate(bytes, imports);
      })
      .then(
        function (output) {
          receiveInstance(output.instance, output.module);
        },
        function (error) {
          abort(error);
        },
      );
    return {}; // instantiation is asynchronous
  };
}

// scripts/pack-wasm.mjs stores the embedded binary gzip-compressed
// (data:application/gzip;base64,…): over a compressing server that is ~30%
// fewer bytes than base64 of the raw binary, and from file:// 55% fewer.
// DecompressionStream (every current browser, Node ≥ 18) unpacks it without a
// fetch, so a strict CSP is fine. An unpacked data: URI still works.
function attentionLabWasmBytes(file) {
  var gzipPrefix = 'data:application/gzip;base64,';
  // Not a data: URI to the glue, so locateFile() put the script's folder in front of it.
  var at = file.indexOf(gzipPrefix);
  if (wasmBinary) return Promise.resolve(new Uint8Array(wasmBinary));
  if (at < 0) return Promise.resolve(getBinary(file));
  if (typeof DecompressionStream !== 'function')
    return Promise.reject(
      new Error('attention-lab: this browser lacks DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 have it)'),
    );
  var packed = intArrayFromBase64(file.slice(at + gzipPrefix.length));
  var stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}
