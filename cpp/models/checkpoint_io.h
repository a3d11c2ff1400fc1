// Little-endian byte writer/reader and the FNV-1a checksum of the trainers'
// checkpoints (seq2seq_trainer.cpp, transformer_trainer.cpp): one format
// helper for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

// The u32 stored in the last four bytes (the checksum), little-endian.
inline std::uint32_t trailingU32(const std::uint8_t* bytes, std::size_t size) {
  return static_cast<std::uint32_t>(bytes[size - 4]) |
         static_cast<std::uint32_t>(bytes[size - 3]) << 8 |
         static_cast<std::uint32_t>(bytes[size - 2]) << 16 |
         static_cast<std::uint32_t>(bytes[size - 1]) << 24;
}

}  // namespace checkpoint
}  // namespace attention
