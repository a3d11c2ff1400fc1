// What every family's binding (cpp/models/families/<family>/binding.cpp) shares
// in the model module (build/wasm/model_core.mjs, instantiated by
// web/src/api/model/open.js on the first openModel call): the loading protocol
// and the attention copy-out of the checkpoint-model base, registered on the
// family's class by checkpointModelClass<Model, Config>(name) (and a decoder's
// forward and last-position copy-out by causalModelClass), and the int32 /
// float32 heap helpers. The family adds its configure(config) (a value_object named with
// config.json's fields) and its forward pass. Binding files only.
#pragma once

#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "binding_convention.h"
#include "models/checkpoint_model.h"
#include "ops/gelu.h"

namespace attention {
namespace model_bindings {

// The loading protocol (models/checkpoint_model.h): step 0: allocate() the
// weights (zeros); step 1: finishLoading() once they are written.
template <typename Model>
StatusCode load(Model& model, int step) {
  return guarded([&] { return step == 0 ? model.allocate() : model.finishLoading(); });
}
template <typename Model>
int parameterCount(const Model& model) {
  return static_cast<int>(model.parameters().size());
}
// "name rows cols" of parameter i ("" outside the list).
template <typename Model>
std::string parameter(const Model& model, int i) {
  if (i < 0 || i >= parameterCount(model)) return std::string();
  const CheckpointParameter& p = model.parameters()[i];
  return p.name + " " + std::to_string(p.rows) + " " + std::to_string(p.cols);
}
// Byte address of parameter i's entries, float32 or 16-bit as stored (0 before
// allocate() and after finishLoading()).
template <typename Model>
double parameterData(Model& model, int i) {
  const void* at = model.parameterData(i);
  if (at == nullptr) at = model.halfParameterData(i);
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(at));
}
// Whether parameter i may stay 16-bit, and keeping it so: format 1 F16, 2 BF16 (before load(0)).
template <typename Model>
bool canStoreHalf(const Model& model, int i) {
  return i >= 0 && i < parameterCount(model) && model.canStoreHalf(i);
}
template <typename Model>
StatusCode storeHalf(Model& model, int i, int format) {
  return guarded(
      [&] { return model.storeAs(i, format == 2 ? WeightStorage::kBF16 : WeightStorage::kF16); });
}

template <typename Dense>
void copyOutFloats(const Dense& result, const Tensor& out) {
  std::copy(result.data(), result.data() + result.size(), out.elements<float>());
}
// out: (H T x T) float32, layer l's attention weights (head h: rows h T .. (h + 1) T - 1).
template <typename Model>
void copyAttention(const Model& model, int l, const Tensor& out) {
  if (l >= 0 && l < model.attentionLayers()) copyOutFloats(model.attention(l), out);
}

// `count` int32 at a heap address (ids, token types, positions).
inline std::vector<int> intsAt(Ptr at, int count) {
  const auto* first = reinterpret_cast<const std::int32_t*>(static_cast<std::uintptr_t>(at));
  return std::vector<int>(first, first + std::max(count, 0));
}
// A float32 Tensor as a matrix view (rows x cols, row-major).
inline Eigen::Map<const Matrix32> floatsOf(const Tensor& t) { return t.matrixOf<float>(); }

// A config's GELU form as the value_object field gelu_erf (true: erf, false: tanh).
template <typename Config>
bool geluErf(const Config& c) {
  return c.gelu == GeluForm::kErf;
}
template <typename Config>
void setGeluErf(Config& c, bool erf) {
  c.gelu = erf ? GeluForm::kErf : GeluForm::kTanh;
}

// configure(config): `Config` crosses as a value_object the family registers.
template <typename Model, typename Config>
StatusCode configure(Model& model, const Config& config) {
  return guarded([&] { return model.configure(config); });
}

// A decoder's forward pass over `count` int32 ids at a heap address.
template <typename Model>
StatusCode forwardIds(Model& model, Ptr ids, int count) {
  return guarded([&] { return model.forward(intsAt(ids, count)); });
}
// out: (1 x V) float32, the last position's probabilities (which = 0) or logits (1).
template <typename Model>
void copyLast(const Model& model, int which, const Tensor& out) {
  copyOutFloats(which == 0 ? model.probabilities() : model.logits(), out);
}

// The KV cache: room for `positions` positions, and one decode step of token `id`.
template <typename Model>
StatusCode reserveCache(Model& model, int positions) {
  return guarded([&] { return model.reserveCache(positions); });
}
template <typename Model>
StatusCode decode(Model& model, int id) {
  return guarded([&] { return model.decode(id); });
}
// out: (H x n) float32, layer l's rows of the last decode step over its n cached positions.
template <typename Model>
void copyStepAttention(const Model& model, int l, const Tensor& out) {
  if (l >= 0 && l < model.attentionLayers()) copyOutFloats(model.stepAttention(l), out);
}

}  // namespace model_bindings

// The family's class `name` with the base's functions: constructor, configure,
// load, parameterCount, parameter, parameterData, canStoreHalf, storeHalf, copyAttention.
template <typename Model, typename Config>
emscripten::class_<Model> checkpointModelClass(const char* name) {
  using namespace model_bindings;
  emscripten::class_<Model> c(name);
  c.template constructor<>()
      .function("configure", &configure<Model, Config>)
      .function("load", &load<Model>)
      .function("parameterCount", &parameterCount<Model>)
      .function("parameter", &parameter<Model>)
      .function("parameterData", &parameterData<Model>)
      .function("canStoreHalf", &canStoreHalf<Model>)
      .function("storeHalf", &storeHalf<Model>)
      .function("copyAttention", &copyAttention<Model>);
  return c;
}

// A decoder-only family's class (web/src/api/model/causal_model.js runs it): the
// base's functions plus forward(ids, count) and copyLast(which, out), for a model
// with forward(ids), probabilities() and logits() (1 x V, the last position), and
// the KV cache's reserveCache(positions), decode(id), copyStepAttention(l, out).
template <typename Model, typename Config>
emscripten::class_<Model> causalModelClass(const char* name) {
  using namespace model_bindings;
  emscripten::class_<Model> c = checkpointModelClass<Model, Config>(name);
  c.function("forward", &forwardIds<Model>)
      .function("copyLast", &copyLast<Model>)
      .function("reserveCache", &reserveCache<Model>)
      .function("decode", &decode<Model>)
      .function("copyStepAttention", &copyStepAttention<Model>);
  return c;
}

}  // namespace attention
