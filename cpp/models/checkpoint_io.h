// The trainers' checkpoints (seq2seq_trainer.cpp, transformer_trainer.cpp):
// a little-endian byte writer/reader, the FNV-1a checksum, and the frame both
// formats share:
//   4-byte magic, u32 version, <the trainer's options>, u64 steps,
//   str generator state, str sampler state, u64 parameter count,
//   f32 parameters, u32 FNV-1a of all the bytes before it.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ops/status.h"

namespace attention {
namespace checkpoint {

inline std::uint32_t fnv1a(const std::uint8_t* data, std::size_t size) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 16777619u;
  }
  return h;
}

class Writer {
 public:
  void u32(std::uint32_t x) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  }
  void u64(std::uint64_t x) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  }
  void f64(double x) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, 8);
    u64(bits);
  }
  void f32(float x) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, 4);
    u32(bits);
  }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  std::vector<std::uint8_t> bytes;
};

class Reader {
 public:
  Reader() = default;
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool u32(std::uint32_t& x) {
    if (!need(4)) return false;
    x = 0;
    for (int i = 0; i < 4; ++i) x |= static_cast<std::uint32_t>(data_[pos_++]) << (8 * i);
    return true;
  }
  bool u64(std::uint64_t& x) {
    if (!need(8)) return false;
    x = 0;
    for (int i = 0; i < 8; ++i) x |= static_cast<std::uint64_t>(data_[pos_++]) << (8 * i);
    return true;
  }
  bool i32(int& x) {
    std::uint32_t u = 0;
    if (!u32(u)) return false;
    std::memcpy(&x, &u, 4);
    return true;
  }
  bool f64(double& x) {
    std::uint64_t bits = 0;
    if (!u64(bits)) return false;
    std::memcpy(&x, &bits, 8);
    return true;
  }
  bool f32(float& x) {
    std::uint32_t bits = 0;
    if (!u32(bits)) return false;
    std::memcpy(&x, &bits, 4);
    return true;
  }
  bool str(std::string& s, std::size_t maxLength) {
    std::uint32_t n = 0;
    if (!u32(n) || n > maxLength || !need(n)) return false;
    s.assign(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return true;
  }
  std::size_t position() const { return pos_; }

 private:
  bool need(std::size_t n) const { return size_ - pos_ >= n; }
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0, pos_ = 0;
};

// The u32 stored in the last four bytes (the checksum), little-endian.
inline std::uint32_t trailingU32(const std::uint8_t* bytes, std::size_t size) {
  return static_cast<std::uint32_t>(bytes[size - 4]) |
         static_cast<std::uint32_t>(bytes[size - 3]) << 8 |
         static_cast<std::uint32_t>(bytes[size - 2]) << 16 |
         static_cast<std::uint32_t>(bytes[size - 1]) << 24;
}

// What follows a trainer's options in the frame.
struct Tail {
  std::uint64_t steps = 0, count = 0;
  std::string generator, sampler;  // RandomState::state()
};

// One checkpoint format: its name (for messages), magic number and version.
class Frame {
 public:
  Frame(const char* kind, const char (&magic)[4], std::uint32_t version)
      : kind_(kind), magic_(magic), version_(version) {}

  Status corrupt(const std::string& why) const {
    return Status::invalidValue("not a valid " + std::string(kind_) + " checkpoint: " + why);
  }

  // The magic number and version; the trainer writes its options next.
  Writer begin() const {
    Writer w;
    for (int i = 0; i < 4; ++i) w.bytes.push_back(static_cast<std::uint8_t>(magic_[i]));
    w.u32(version_);
    return w;
  }
  // The tail and the checksum, after the options.
  template <class Params>
  std::vector<std::uint8_t> finish(Writer& w, std::uint64_t steps, const std::string& generator,
                                   const std::string& sampler, const Params& params) const {
    w.u64(steps);
    w.str(generator);
    w.str(sampler);
    w.u64(static_cast<std::uint64_t>(params.size()));
    for (Eigen::Index i = 0; i < params.size(); ++i) w.f32(static_cast<float>(params[i]));
    w.u32(fnv1a(w.bytes.data(), w.bytes.size()));
    return std::move(w.bytes);
  }

  // Checks size, magic number, version and checksum; `r` then reads the options.
  Status open(const std::uint8_t* bytes, std::size_t size, Reader& r) const {
    if (size < 12) return corrupt("only " + std::to_string(size) + " bytes");
    if (std::memcmp(bytes, magic_, 4) != 0) {
      return corrupt("wrong magic number (expected \"" + std::string(magic_, 4) + "\")");
    }
    r = Reader(bytes + 4, size - 8);  // between the magic number and the checksum
    std::uint32_t version = 0;
    r.u32(version);
    if (version != version_) {
      return corrupt("version " + std::to_string(version) + " is not supported (this build reads " +
                     std::to_string(version_) + ")");
    }
    if (fnv1a(bytes, size - 4) != trailingU32(bytes, size)) {
      return corrupt("checksum mismatch (truncated or altered)");
    }
    return Status::ok();
  }
  static bool readTail(Reader& r, Tail& tail) {
    return r.u64(tail.steps) && r.str(tail.generator, 1 << 16) && r.str(tail.sampler, 1 << 16) &&
           r.u64(tail.count);
  }
  // The f32 parameters into `params`, already sized by the options.
  template <class Params>
  Status readParams(Reader& r, std::size_t size, const Tail& tail, Params& params) const {
    if (tail.count != static_cast<std::uint64_t>(params.size())) {
      return corrupt("it holds " + std::to_string(tail.count) +
                     " parameters but its options need " + std::to_string(params.size()));
    }
    if (size - 8 - r.position() != tail.count * 4) return corrupt("wrong parameter data size");
    for (Eigen::Index i = 0; i < params.size(); ++i) {
      float x = 0;
      r.f32(x);
      if (!std::isfinite(x)) return corrupt("parameter " + std::to_string(i) + " is not finite");
      params[i] = x;
    }
    return Status::ok();
  }

 private:
  const char* kind_;
  const char* magic_;
  std::uint32_t version_;
};

}  // namespace checkpoint
}  // namespace attention
