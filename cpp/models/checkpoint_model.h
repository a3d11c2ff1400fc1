// The base of every model read from a checkpoint (cpp/models/families/<family>/):
// what a family's forward pass does not need to know about loading. It owns the
// parameter list the family lays out from its config, one float32 buffer per
// parameter that the JS reader streams into (parameterData), the check that
// every weight is finite, the one-time packing of the linear layers for the
// gemm (ops/gemm.h packB: the layout its kernel reads, so a forward pass never
// repacks them), and the attention weights of the last forward pass.
//
// Protocol: the family's configure() -> lay() (no allocation) -> allocate() ->
// parameterData(i) for each parameter -> finishLoading() -> the family's forward().
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ops/gemm.h"  // MatrixOut32
#include "ops/linear.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

struct CheckpointParameter {
  std::string name;        // Hugging Face's, without the family's prefix
  int rows = 0, cols = 0;  // a vector is 1 x n
};

class CheckpointModel {
 public:
  const std::vector<CheckpointParameter>& parameters() const { return parameters_; }
  // Floats of all parameters together.
  std::size_t weightCount() const { return count_; }

  // Allocates every parameter's buffer (zeros); throws std::bad_alloc if they do
  // not fit (the bindings turn it into kOutOfMemory; nothing stays allocated then).
  Status allocate();
  // Where parameter `index`'s row-major entries go; null before allocate() and
  // after finishLoading().
  float* parameterData(int index);
  // After loading: checks that every weight is finite (the message names the
  // first tensor that is not), then packs the linear weights. Idempotent once it
  // succeeded; forward() needs it.
  Status finishLoading();
  bool loaded() const { return ready_; }

  // Layers with attention weights (the config's), and tokens of the last forward pass.
  int attentionLayers() const { return layers_; }
  int tokens() const { return tokens_; }
  // (H T x T): head h's attention weights are rows h T .. (h + 1) T - 1, row = query.
  const Matrix32& attention(int l) const { return attention_[l]; }

 protected:
  CheckpointModel() = default;
  ~CheckpointModel() = default;

  // The parameters, in the family's order, which of them are linear weights
  // (packed by finishLoading), stored as `layout` (in x out, or PyTorch's out x
  // in), and how many layers have attention maps. Frees any buffers. Refuses
  // (changing nothing) weights that would not fit the wasm memory's 2 GiB in float32.
  Status lay(std::vector<CheckpointParameter> parameters, std::vector<int> linears,
             WeightLayout layout, int layers);

  const float* paramData(int index) const { return tensors_[index].data(); }
  Eigen::Map<const Matrix32> param(int index) const;
  // y = x W + b with the packed linear weight `weight` and the vector `bias`
  // (T x out; bias < 0: none).
  void linear(const MatrixView32& x, int weight, int bias, MatrixOut32 y) const;
  // Finite weights can still overflow float32 in a forward pass. The model names
  // where (the core ops' messages advise scaling their inputs, which a model's
  // caller cannot do): `what` of layer `layer` (-1: after the layers).
  static Status overflowIn(int layer, const std::string& what);
  // overflowIn(layer, what) unless every entry of `values` is finite.
  static Status requireFiniteIn(const MatrixView32& values, int layer, const std::string& what);
  // A forward pass of T tokens starts here: sizes each layer's (H T x T) attention weights.
  void beginForward(int tokens, int heads);
  Matrix32& attentionOut(int l) { return attention_[l]; }

 private:
  std::vector<CheckpointParameter> parameters_;
  std::vector<int> linears_;
  WeightLayout layout_ = WeightLayout::kInOut;
  int layers_ = 0;
  std::size_t count_ = 0;
  std::vector<std::vector<float>> tensors_;  // one per parameter
  bool ready_ = false;

  int tokens_ = 0;
  std::vector<Matrix32> attention_;  // layers_ of (H T x T)
};

}  // namespace attention
