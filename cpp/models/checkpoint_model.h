// The base of every model read from a checkpoint (cpp/models/families/<family>/):
// what a family's forward pass does not need to know about loading. It owns the
// parameter list the family lays out from its config, one float32 buffer per
// parameter that the JS reader streams into (parameterData), the check that
// every weight is finite, the one-time packing of the linear layers for the
// gemm (ops/gemm.h packStreamB: the layout its kernel reads, so a forward pass never
// repacks them), and the attention weights of the last forward pass.
// F16 and BF16 weights may stay 16-bit (storeAs): the linear ones, and those a
// family reads through readRow / timesVector (a decoder's embedding and output
// tables). They are widened to float32 where read (packStreamB's 16-bit form), so a
// model takes about its file's size; the products are the same.
//
// The KV cache of decoding: a forward pass (the prefill) keeps every layer's
// keys and values (after RoPE, one row a position, one column block a kv head),
// and each decode step of the family appends one position and computes only
// its row (the family's decode(id)).
//
// Protocol: the family's configure() -> lay() (no allocation) -> storeAs(i, s)
// for any 16-bit parameter -> allocate() -> parameterData(i) (float32) or
// halfParameterData(i) (16-bit) for each parameter -> finishLoading() -> the
// family's forward().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/gemm.h"  // MatrixOut32
#include "ops/linear.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

enum class WeightStorage { kFloat32, kF16, kBF16 };

struct CheckpointParameter {
  std::string name;        // Hugging Face's, without the family's prefix
  int rows = 0, cols = 0;  // a vector is 1 x n
};

class CheckpointModel {
 public:
  const std::vector<CheckpointParameter>& parameters() const { return parameters_; }
  // Floats of all parameters together.
  std::size_t weightCount() const { return count_; }

  // Whether parameter `index` may stay 16-bit, and keeping it so (before
  // allocate(); an invalid argument for another parameter).
  bool canStoreHalf(int index) const { return capable_[index]; }
  Status storeAs(int index, WeightStorage storage);
  // Bytes of all parameters as stored.
  double weightBytes() const;
  // Allocates every parameter's buffer (zeros), refusing (kOutOfMemory, with the
  // MiB needed) weights past the wasm memory's 2 GiB as stored; throws
  // std::bad_alloc if they do not fit (the bindings turn it into kOutOfMemory;
  // nothing stays allocated then).
  Status allocate();
  // Where parameter `index`'s row-major entries go (float32, or the 16-bit
  // values as stored); null for the other storage, before allocate() and after
  // finishLoading().
  float* parameterData(int index);
  std::uint16_t* halfParameterData(int index);
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

  // The KV cache: positions it holds (the last forward pass's tokens plus one a
  // decode step since), and how many it has room for.
  int cachedPositions() const { return cached_; }
  int cacheCapacity() const { return capacity_; }
  // (H x n) of the last decode step: row h is query head h's attention weights
  // over the n cached positions (its own the last).
  const Matrix32& stepAttention(int l) const { return step_[l]; }

 protected:
  CheckpointModel() = default;
  ~CheckpointModel() = default;

  // The parameters, in the family's order, which of them are linear weights
  // (packed by finishLoading), stored as `layout` (in x out, or PyTorch's out x
  // in), how many layers have attention maps, and which other parameters are
  // token tables the family reads only through readRow / timesVector (laid out
  // by finishLoading as ops/token_table.h says; they may stay 16-bit).
  // Frees any buffers. Refuses (changing nothing) weights that would not fit the
  // wasm memory's 2 GiB even with those 16-bit.
  Status lay(std::vector<CheckpointParameter> parameters, std::vector<int> linears,
             WeightLayout layout, int layers, std::vector<int> halfReadable = {});

  // A float32 parameter's entries (null for a 16-bit one).
  const float* paramData(int index) const;
  Eigen::Map<const Matrix32> param(int index) const;
  // y = x W + b with the packed linear weight `weight` and the vector `bias`
  // (T x out; bias < 0: none).
  void linear(const MatrixView32& x, int weight, int bias, MatrixOut32 y) const;
  // Row `row` of parameter `index` as float32 (cols floats), whatever its storage.
  void readRow(int index, Eigen::Index row, float* out) const;
  // y (rows) = token table `index` (rows x cols; one of lay's halfReadable) times
  // x (cols), whatever its storage.
  void timesVector(int index, const float* x, float* y) const;
  // Finite weights can still overflow float32 in a forward pass. The model names
  // where (the core ops' messages advise scaling their inputs, which a model's
  // caller cannot do): `what` of layer `layer` (-1: after the layers).
  static Status overflowIn(int layer, const std::string& what);
  // overflowIn(layer, what) unless every entry of `values` is finite.
  static Status requireFiniteIn(const MatrixView32& values, int layer, const std::string& what);
  // A forward pass of T tokens starts here: sizes each layer's (H T x T) attention weights.
  void beginForward(int tokens, int heads);
  Matrix32& attentionOut(int l) { return attention_[l]; }

  // Room for `positions` positions of `width` floats of keys and of values in
  // every layer, allocated now; refused (kOutOfMemory, before allocating) when
  // they and the weights would pass the wasm memory's 2 GiB. 0 frees the cache.
  Status reserveKeysValues(int positions, Eigen::Index width);
  // A forward pass keeps its T positions' keys and values (rows 0..T-1 of
  // cachedKeys / cachedValues, grown to T rows if less was reserved); the cache
  // holds them once endCache(T) says the pass succeeded.
  void beginCache(int tokens, Eigen::Index width);
  void endCache(int tokens) { cached_ = tokens; }
  Matrix32& cachedKeys(int l) { return keys_[l]; }
  Matrix32& cachedValues(int l) { return values_[l]; }
  // A decode step at position cachedPositions(): sizes each layer's (H x (t + 1))
  // stepAttention; endCache(t + 1) once the step succeeded.
  void beginStep(int heads);
  // Whether a decode step may run at position t = cachedPositions(): the weights
  // loaded, a forward pass first, t below the model's `positions` (config.json's
  // `positionsName`) and below the cache's room.
  Status decodeAllowed(int positions, const char* positionsName) const;
  Matrix32& stepAttentionOut(int l) { return step_[l]; }

 private:
  std::vector<CheckpointParameter> parameters_;
  std::vector<int> linears_;
  std::vector<bool> capable_;           // may stay 16-bit
  std::vector<bool> tables_;            // token tables (ops/token_table.h's layout)
  std::vector<WeightStorage> storage_;  // as stored
  WeightLayout layout_ = WeightLayout::kInOut;
  int layers_ = 0;
  std::size_t count_ = 0;
  std::vector<std::vector<float>> tensors_;         // one per parameter (empty if 16-bit)
  std::vector<std::vector<std::uint16_t>> halves_;  // one per parameter (empty if float32)
  HalfFormat formatOf(int index) const;
  bool ready_ = false;

  int tokens_ = 0;
  std::vector<Matrix32> attention_;  // layers_ of (H T x T)

  int cached_ = 0, capacity_ = 0;
  std::vector<Matrix32> keys_, values_;  // layers_ of (capacity x width)
  std::vector<Matrix32> step_;           // layers_ of (H x t + 1)
  void clearCache();
};

}  // namespace attention
