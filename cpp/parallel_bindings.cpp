// The thread pool's size (cpp/ops/parallel.h), in both model modules: the
// threaded one (model_core_threads.mjs) takes up to as many threads as it was
// given workers; the other answers only 1.
#include <emscripten/bind.h>

#include "ops/parallel.h"

EMSCRIPTEN_BINDINGS(parallel) {
  emscripten::function("setThreadCount", &attention::setThreadCount);
  emscripten::function("threadCount", &attention::threadCount);
}
