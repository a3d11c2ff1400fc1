#include "checkpoint_model.h"

#include <algorithm>

#include "ops/token_table.h"
#include "ops/validate.h"

namespace attention {

namespace {

constexpr double kMaxBytes = 4294967296.0;  // the model module's wasm memory maximum (4 GiB)

std::string mib(double bytes) { return std::to_string(static_cast<long long>(bytes / 1048576.0)); }

}  // namespace

Status CheckpointModel::lay(std::vector<CheckpointParameter> parameters, std::vector<int> linears,
                            WeightLayout layout, int layers, std::vector<int> halfReadable) {
  // In double: a hostile config cannot wrap them. At best every parameter that
  // may stay 16-bit does; refused only if even that cannot fit.
  std::vector<bool> capable(parameters.size(), false);
  for (int i : linears) capable[i] = true;
  for (int i : halfReadable) capable[i] = true;
  double floats = 0, best = 0;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const double n =
        static_cast<double>(parameters[i].rows) * static_cast<double>(parameters[i].cols);
    floats += n;
    best += n * (capable[i] ? 2 : 4);
  }
  if (best > kMaxBytes) {
    return Status::outOfMemory("the model needs " + mib(floats * 4) +
                               " MiB for its float32 weights, more than the 4096 MiB of the wasm "
                               "memory" +
                               (best < floats * 4 ? " (" + mib(best) + " MiB in 16 bits)" : ""));
  }
  parameters_ = std::move(parameters);
  linears_ = std::move(linears);
  capable_ = std::move(capable);
  tables_.assign(parameters_.size(), false);
  for (int i : halfReadable) tables_[i] = true;
  storage_.assign(parameters_.size(), WeightStorage::kFloat32);
  layout_ = layout;
  layers_ = layers;
  count_ = static_cast<std::size_t>(floats);
  tensors_.clear();
  tensors_.shrink_to_fit();
  halves_.clear();
  halves_.shrink_to_fit();
  ready_ = false;
  tokens_ = 0;
  attention_.clear();
  clearCache();
  return Status::ok();
}

Status CheckpointModel::storeAs(int index, WeightStorage storage) {
  if (index < 0 || index >= static_cast<int>(parameters_.size()) || !tensors_.empty()) {
    return Status::invalidArgument("storeAs: parameter " + std::to_string(index) +
                                   " does not exist, or the weights are allocated");
  }
  if (storage != WeightStorage::kFloat32 && !capable_[index]) {
    return Status::invalidArgument("storeAs: " + parameters_[index].name +
                                   " is read as float32 and cannot stay 16-bit");
  }
  storage_[index] = storage;
  return Status::ok();
}

double CheckpointModel::weightBytes() const {
  double bytes = 0;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const double n =
        static_cast<double>(parameters_[i].rows) * static_cast<double>(parameters_[i].cols);
    bytes += n * (storage_[i] == WeightStorage::kFloat32 ? 4 : 2);
  }
  return bytes;
}

Status CheckpointModel::allocate() {
  ready_ = false;
  if (weightBytes() > kMaxBytes) {
    return Status::outOfMemory("the model needs " + mib(weightBytes()) +
                               " MiB for its weights, more than the 4096 MiB of the wasm memory");
  }
  std::vector<std::vector<float>> tensors(parameters_.size());
  std::vector<std::vector<std::uint16_t>> halves(parameters_.size());
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const std::size_t n = static_cast<std::size_t>(parameters_[i].rows) * parameters_[i].cols;
    if (storage_[i] == WeightStorage::kFloat32) {
      tensors[i].assign(n, 0.0f);
    } else {
      halves[i].assign(n, 0);
    }
  }
  tensors_.swap(tensors);
  halves_.swap(halves);
  return Status::ok();
}

float* CheckpointModel::parameterData(int index) {
  if (index < 0 || index >= static_cast<int>(tensors_.size()) || ready_) return nullptr;
  return storage_[index] == WeightStorage::kFloat32 ? tensors_[index].data() : nullptr;
}

std::uint16_t* CheckpointModel::halfParameterData(int index) {
  if (index < 0 || index >= static_cast<int>(halves_.size()) || ready_) return nullptr;
  return storage_[index] == WeightStorage::kFloat32 ? nullptr : halves_[index].data();
}

const float* CheckpointModel::paramData(int index) const {
  return storage_[index] == WeightStorage::kFloat32 ? tensors_[index].data() : nullptr;
}

Eigen::Map<const Matrix32> CheckpointModel::param(int index) const {
  const CheckpointParameter& p = parameters_[index];
  return Eigen::Map<const Matrix32>(paramData(index), p.rows, p.cols);
}

HalfFormat CheckpointModel::formatOf(int index) const {
  return storage_[index] == WeightStorage::kBF16 ? HalfFormat::kBF16 : HalfFormat::kF16;
}

Status CheckpointModel::finishLoading() {
  if (tensors_.size() != parameters_.size()) {
    return Status::invalidArgument("the weights are not loaded");
  }
  if (ready_) return Status::ok();
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const CheckpointParameter& p = parameters_[i];
    const bool finite =
        storage_[i] == WeightStorage::kFloat32
            ? allFinite(tensors_[i].data(), Eigen::Index{p.rows} * p.cols)
            : halvesFinite(halves_[i].data(), halves_[i].size(), formatOf(static_cast<int>(i)));
    if (!finite) {
      return Status::invalidValue("tensor " + p.name + " holds NaN or ±Infinity");
    }
  }
  // One matrix at a time: the extra memory is one packed matrix. op(B) is the
  // weight as (in x out): as stored (in x out), or transposed (PyTorch's out x in).
  // 16-bit ones are packed 16-bit (widened where the product reads them).
  for (int i : linears_) {
    const CheckpointParameter& p = parameters_[i];
    if (storage_[i] != WeightStorage::kFloat32) {
      std::vector<std::uint16_t> packed;
      if (layout_ == WeightLayout::kInOut) {
        packStreamB(Trans::kNo, halves_[i].data(), p.cols, p.rows, p.cols, packed);
      } else {
        packStreamB(Trans::kYes, halves_[i].data(), p.cols, p.cols, p.rows, packed);
      }
      halves_[i].swap(packed);
      continue;
    }
    std::vector<float> packed;
    if (layout_ == WeightLayout::kInOut) {
      packStreamB(Trans::kNo, tensors_[i].data(), p.cols, p.rows, p.cols, packed);
    } else {
      packStreamB(Trans::kYes, tensors_[i].data(), p.cols, p.cols, p.rows, packed);
    }
    tensors_[i].swap(packed);
  }
  // The tables read through readRow / timesVector: token_table.h's layout, in place.
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (!tables_[i]) continue;
    const CheckpointParameter& p = parameters_[i];
    if (storage_[i] == WeightStorage::kFloat32) {
      layOutTokenTable(tensors_[i].data(), p.rows, p.cols);
    } else {
      layOutTokenTable(halves_[i].data(), formatOf(static_cast<int>(i)), p.rows, p.cols);
    }
  }
  ready_ = true;
  return Status::ok();
}

void CheckpointModel::linear(const MatrixView32& x, int weight, int bias, MatrixOut32 y) const {
  const CheckpointParameter& w = parameters_[weight];
  const Eigen::Index out = layout_ == WeightLayout::kInOut ? w.cols : w.rows;
  const float* b = bias < 0 ? nullptr : paramData(bias);
  if (storage_[weight] == WeightStorage::kFloat32) {
    linearPackedInto(x, paramData(weight), out, b, y);
    return;
  }
  linearPackedHalfInto(x, halves_[weight].data(), formatOf(weight), out, b, y);
}

void CheckpointModel::readRow(int index, Eigen::Index row, float* out) const {
  const Eigen::Index rows = parameters_[index].rows, cols = parameters_[index].cols;
  if (tables_[index]) {
    if (storage_[index] == WeightStorage::kFloat32) {
      tokenTableRow(tensors_[index].data(), rows, cols, row, out);
    } else {
      tokenTableRow(halves_[index].data(), formatOf(index), rows, cols, row, out);
    }
    return;
  }
  if (storage_[index] == WeightStorage::kFloat32) {
    std::copy(tensors_[index].data() + row * cols, tensors_[index].data() + (row + 1) * cols, out);
  } else {
    widenHalves(halves_[index].data() + row * cols, static_cast<std::size_t>(cols), formatOf(index),
                out);
  }
}

void CheckpointModel::timesVector(int index, const float* x, float* y) const {
  const CheckpointParameter& p = parameters_[index];
  if (storage_[index] == WeightStorage::kFloat32) {
    tokenTableTimes(tensors_[index].data(), p.rows, p.cols, x, y);
  } else {
    tokenTableTimes(halves_[index].data(), formatOf(index), p.rows, p.cols, x, y);
  }
}

Status CheckpointModel::overflowIn(int layer, const std::string& what) {
  const std::string where =
      layer < 0 ? "the " + what : "layer " + std::to_string(layer) + "'s " + what;
  return Status::invalidValue(where +
                              " overflowed float32 (|x| > 3.4e38): the model's weights are too "
                              "large for float32 at that step");
}

Status CheckpointModel::requireFiniteIn(const MatrixView32& values, int layer,
                                        const std::string& what) {
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    if (!allFinite(values.data() + i * values.outerStride(), values.cols())) {
      return overflowIn(layer, what);
    }
  }
  return Status::ok();
}

void CheckpointModel::beginForward(int tokens, int heads) {
  tokens_ = tokens;
  attention_.resize(layers_);
  for (Matrix32& a : attention_) a.resize(Eigen::Index{heads} * tokens, tokens);
}

void CheckpointModel::clearCache() {
  cached_ = capacity_ = 0;
  keys_.clear();
  values_.clear();
  step_.clear();
}

Status CheckpointModel::reserveKeysValues(int positions, Eigen::Index width) {
  clearCache();
  if (positions <= 0) return Status::ok();
  // Keys and values, in double: a hostile count cannot wrap.
  const double bytes = 2.0 * layers_ * positions * static_cast<double>(width) * sizeof(float);
  if (weightBytes() + bytes > kMaxBytes) {
    return Status::outOfMemory("the KV cache of " + std::to_string(positions) +
                               " positions needs " + mib(bytes) +
                               " MiB, more than the wasm memory's 2048 MiB holds " +
                               "beside the model's " + mib(weightBytes()) + " MiB of weights");
  }
  keys_.assign(layers_, Matrix32(positions, width));
  values_.assign(layers_, Matrix32(positions, width));
  capacity_ = positions;
  return Status::ok();
}

void CheckpointModel::beginCache(int tokens, Eigen::Index width) {
  cached_ = 0;
  const int rows = std::max(tokens, capacity_);
  if (static_cast<int>(keys_.size()) != layers_ || capacity_ < tokens ||
      (layers_ > 0 && keys_[0].cols() != width)) {
    keys_.assign(layers_, Matrix32(rows, width));
    values_.assign(layers_, Matrix32(rows, width));
  }
  capacity_ = rows;
}

Status CheckpointModel::decodeAllowed(int positions, const char* positionsName) const {
  if (!loaded()) return Status::invalidArgument("the weights are not loaded");
  if (cached_ < 1) {
    return Status::invalidArgument(
        "decode needs a forward pass over the prompt first (the KV "
        "cache is empty)");
  }
  if (cached_ >= positions) {
    return Status::shapeMismatch("decode at position " + std::to_string(cached_) +
                                 " is beyond the model's " + positionsName + " = " +
                                 std::to_string(positions));
  }
  if (cached_ >= capacity_) {
    return Status::shapeMismatch("the KV cache is full: it has room for " +
                                 std::to_string(capacity_) +
                                 " positions (reserveCache sets how many)");
  }
  return Status::ok();
}

void CheckpointModel::beginStep(int heads) {
  step_.resize(layers_);
  for (Matrix32& m : step_) m.resize(heads, cached_ + 1);
}

}  // namespace attention
