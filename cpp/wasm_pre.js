// --pre-js for the wasm module (runs inside Emscripten's module factory).
// Emscripten 3.1.6 fetch()es even its embedded data: URI before decoding it
// itself, which a strict Content-Security-Policy (connect-src / default-src)
// reports as a violation. Decode the embedded binary directly instead.
if (!Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    WebAssembly.instantiate(getBinary(wasmBinaryFile), imports).then(
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
