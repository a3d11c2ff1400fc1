// The thread pool's size (cpp/ops/parallel.h), in both model modules: the
// threaded one (model_core_threads.mjs) takes up to as many threads as it was
// given workers; the other answers only 1.
#include <emscripten/bind.h>

#include "ops/parallel.h"

EMSCRIPTEN_BINDINGS(parallel) {
  emscripten::function("setThreadCount", &attention::setThreadCount);
  emscripten::function("threadCount", &attention::threadCount);
  // A double: Embind 3.1.6 has no 64-bit integers without BigInt.
  emscripten::function(
      "piecesOnWorkers", +[]() { return static_cast<double>(attention::piecesOnWorkers()); });
}
