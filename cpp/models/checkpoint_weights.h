// The float32 weights of a model read from a checkpoint (GPT-2, BERT): the
// parameter list a model lays out from its config, one buffer per parameter
// that the JS reader writes into, then a check that every weight is finite and
// the linear layers packed once for the gemm (ops/gemm.h packB: the layout its
// kernel reads), so a forward pass never repacks them.
//
// Protocol: lay() (no allocation) -> allocate() -> writable(i) for each
// parameter -> finish(linears) -> data(i) / param(i) while the model runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ops/linear.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

struct CheckpointParameter {
  std::string name;
  int rows = 0, cols = 0;  // a vector is 1 x n
};

class CheckpointWeights {
 public:
  // The parameters, in the model's order; frees any buffers. Refuses (changing
  // nothing) weights that would not fit the wasm memory's 2 GiB in float32.
  Status lay(std::vector<CheckpointParameter> parameters);
  const std::vector<CheckpointParameter>& parameters() const { return parameters_; }
  // Floats of all parameters together.
  std::size_t count() const { return count_; }

  // Allocates every parameter's buffer (zeros); throws std::bad_alloc if they do
  // not fit (the bindings turn it into kOutOfMemory; nothing stays allocated then).
  Status allocate();
  // Where parameter `index`'s row-major entries go; null before allocate() and after finish().
  float* writable(int index);
  // Checks every weight is finite (naming the first tensor that is not), then packs
  // the parameters `linears` (weights stored as `layout`: in x out or out x in) for
  // linearPackedInto. Idempotent once it succeeded.
  Status finish(const std::vector<int>& linears, WeightLayout layout);
  bool ready() const { return ready_; }

  const float* data(int index) const { return tensors_[index].data(); }
  Eigen::Map<const Matrix32> param(int index) const;

 private:
  std::vector<CheckpointParameter> parameters_;
  std::size_t count_ = 0;
  std::vector<std::vector<float>> tensors_;  // one per parameter
  bool ready_ = false;
};

}  // namespace attention
