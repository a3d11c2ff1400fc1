#include "checkpoint_model.h"

#include "ops/validate.h"

namespace attention {

Status CheckpointModel::lay(std::vector<CheckpointParameter> parameters, std::vector<int> linears,
                            WeightLayout layout, int layers) {
  double floats = 0;  // in double: a hostile config cannot wrap it
  for (const CheckpointParameter& p : parameters) {
    floats += static_cast<double>(p.rows) * static_cast<double>(p.cols);
  }
  constexpr double kMaxBytes = 2147483648.0;  // the wasm memory's maximum (2 GiB)
  if (floats * 4 > kMaxBytes) {
    return Status::outOfMemory(
        "the model needs " + std::to_string(static_cast<long long>(floats * 4 / 1048576.0)) +
        " MiB for its float32 weights, more than the 2048 MiB of the wasm memory");
  }
  parameters_ = std::move(parameters);
  linears_ = std::move(linears);
  layout_ = layout;
  layers_ = layers;
  count_ = static_cast<std::size_t>(floats);
  tensors_.clear();
  tensors_.shrink_to_fit();
  ready_ = false;
  tokens_ = 0;
  attention_.clear();
  return Status::ok();
}

Status CheckpointModel::allocate() {
  ready_ = false;
  std::vector<std::vector<float>> tensors(parameters_.size());
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    tensors[i].assign(static_cast<std::size_t>(parameters_[i].rows) * parameters_[i].cols, 0.0f);
  }
  tensors_.swap(tensors);
  return Status::ok();
}

float* CheckpointModel::parameterData(int index) {
  if (index < 0 || index >= static_cast<int>(tensors_.size()) || ready_) return nullptr;
  return tensors_[index].data();
}

Eigen::Map<const Matrix32> CheckpointModel::param(int index) const {
  const CheckpointParameter& p = parameters_[index];
  return Eigen::Map<const Matrix32>(paramData(index), p.rows, p.cols);
}

Status CheckpointModel::finishLoading() {
  if (tensors_.size() != parameters_.size()) {
    return Status::invalidArgument("the weights are not loaded");
  }
  if (ready_) return Status::ok();
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const CheckpointParameter& p = parameters_[i];
    if (!allFinite(tensors_[i].data(), Eigen::Index{p.rows} * p.cols)) {
      return Status::invalidValue("tensor " + p.name + " holds NaN or ±Infinity");
    }
  }
  // One matrix at a time: the extra memory is one packed matrix. op(B) is the
  // weight as (in x out): as stored (in x out), or transposed (PyTorch's out x in).
  for (int i : linears_) {
    const CheckpointParameter& p = parameters_[i];
    std::vector<float> packed;
    if (layout_ == WeightLayout::kInOut) {
      packB(Trans::kNo, tensors_[i].data(), p.cols, p.rows, p.cols, packed);
    } else {
      packB(Trans::kYes, tensors_[i].data(), p.cols, p.cols, p.rows, packed);
    }
    tensors_[i].swap(packed);
  }
  ready_ = true;
  return Status::ok();
}

void CheckpointModel::linear(const MatrixView32& x, int weight, int bias, MatrixOut32 y) const {
  const CheckpointParameter& w = parameters_[weight];
  linearPackedInto(x, paramData(weight), layout_ == WeightLayout::kInOut ? w.cols : w.rows,
                   bias < 0 ? nullptr : paramData(bias), y);
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

}  // namespace attention
