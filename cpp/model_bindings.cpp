// The model module (build/wasm/model_core.mjs): every family's binding
// (cpp/models/families/<family>/binding.cpp, found by CMake) linked with this
// file, which registers what they share once: the binding convention
// (cpp/binding_convention.h: Tensor, StatusCode, _lastError). It is a wasm module
// of its own, instantiated on the first openModel call
// (web/src/api/model/open.js), so no lesson's first load carries the models or
// the ops only they use: layer norm, GELU, the token + position embedding, gemv.
#include <emscripten/bind.h>

#include "binding_convention.h"

EMSCRIPTEN_BINDINGS(model_core) { attention::bindConvention(); }
