// --post-js of the threaded model module (CMakeLists.txt model_wasm_threads).
// Its memory is a SharedArrayBuffer that any thread may grow; the glue then
// replaces its views only when it next reads them itself. Module.HEAPF64, which
// the JS API reads, is made a getter that brings the views up to date first.
/* global Module, wasmMemory, buffer, updateGlobalBufferAndViews, HEAPF64 -- the glue's, around this file */
Object.defineProperty(Module, 'HEAPF64', {
  configurable: true,
  get: function () {
    if (wasmMemory.buffer != buffer) updateGlobalBufferAndViews(wasmMemory.buffer);
    return HEAPF64;
  },
  set: function () {},
});
