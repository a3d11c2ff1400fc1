#include "rope.h"

#include <cmath>
#include <string>

#include "validate.h"

namespace attention {

namespace {

constexpr double kPi = 3.14159265358979323846;

Status checkHeadDim(int headDim) {
  if (headDim < 2 || headDim % 2 != 0) {
    return Status::invalidValue("headDim is " + std::to_string(headDim) +
                                " but must be even and at least 2 (coordinates turn in pairs)");
  }
  return Status::ok();
}

Status checkScaling(const RopeScaling& s) {
  if (!std::isfinite(s.factor) || s.factor < 1) {
    return Status::invalidValue("scaling.factor is " + std::to_string(s.factor) +
                                " but must be a finite number >= 1");
  }
  if (s.type != RopeScaling::Type::kLlama3) return Status::ok();
  if (!(s.lowFreqFactor > 0) || !std::isfinite(s.highFreqFactor) ||
      !(s.highFreqFactor > s.lowFreqFactor)) {
    return Status::invalidValue("llama3 scaling needs 0 < lowFreqFactor < highFreqFactor (got " +
                                std::to_string(s.lowFreqFactor) + " and " +
                                std::to_string(s.highFreqFactor) + ")");
  }
  if (s.originalMaxPositions < 1) {
    return Status::invalidValue("scaling.originalMaxPositions is " +
                                std::to_string(s.originalMaxPositions) + " but must be >= 1");
  }
  return Status::ok();
}

template <typename T>
Status applyRopeOf(MatrixOutOf<T> x, const std::vector<int>& positions,
                   const std::vector<double>& invFreq, int headDim, RopePairing pairing) {
  RETURN_IF_ERROR(checkHeadDim(headDim));
  if (x.cols() % headDim != 0) {
    return Status::shapeMismatch(
        "x is " + dims(x.rows(), x.cols()) +
        "; its columns must be a multiple of headDim = " + std::to_string(headDim));
  }
  if (static_cast<Eigen::Index>(positions.size()) != x.rows()) {
    return Status::shapeMismatch("positions has " + std::to_string(positions.size()) +
                                 " entries but x has " + std::to_string(x.rows()) + " rows");
  }
  const int half = headDim / 2;
  if (static_cast<int>(invFreq.size()) != half) {
    return Status::shapeMismatch("invFreq has " + std::to_string(invFreq.size()) +
                                 " entries but must have headDim / 2 = " + std::to_string(half));
  }
  for (double f : invFreq) {
    if (!std::isfinite(f)) return Status::invalidValue("invFreq holds NaN or ±Infinity");
  }
  for (std::size_t t = 0; t < positions.size(); ++t) {
    if (positions[t] < 0) {
      return Status::invalidValue("positions[" + std::to_string(t) + "] is " +
                                  std::to_string(positions[t]) + " but must be >= 0");
    }
  }
  const Eigen::Index blocks = x.cols() / headDim;
  // Coordinates a and b of pair i: (i, i + d/2) or (2i, 2i + 1).
  const int stride = pairing == RopePairing::kHalf ? 1 : 2;
  const int partner = pairing == RopePairing::kHalf ? half : 1;
  std::vector<T> cosines(half), sines(half);
  for (Eigen::Index t = 0; t < x.rows(); ++t) {
    for (int i = 0; i < half; ++i) {
      const double angle = positions[t] * invFreq[i];
      cosines[i] = static_cast<T>(std::cos(angle));
      sines[i] = static_cast<T>(std::sin(angle));
    }
    T* row = x.data() + t * x.outerStride();
    for (Eigen::Index b = 0; b < blocks; ++b) {
      T* block = row + b * headDim;
      for (int i = 0; i < half; ++i) {
        T& a = block[i * stride];
        T& c = block[i * stride + partner];
        const T x0 = a, x1 = c;
        a = x0 * cosines[i] - x1 * sines[i];
        c = x1 * cosines[i] + x0 * sines[i];
      }
    }
  }
  return Status::ok();
}

}  // namespace

Status ropeInverseFrequencies(int headDim, double base, const RopeScaling& scaling,
                              std::vector<double>& out) {
  RETURN_IF_ERROR(checkHeadDim(headDim));
  if (!std::isfinite(base) || !(base > 1)) {
    return Status::invalidValue("base is " + std::to_string(base) +
                                " but must be a finite number > 1");
  }
  RETURN_IF_ERROR(checkScaling(scaling));
  const int half = headDim / 2;
  out.assign(half, 0.0);
  for (int i = 0; i < half; ++i) {
    out[i] = 1.0 / std::pow(base, 2.0 * i / headDim);
  }
  if (scaling.type == RopeScaling::Type::kLinear) {
    for (double& f : out) f /= scaling.factor;
  } else if (scaling.type == RopeScaling::Type::kLlama3) {
    const double old = scaling.originalMaxPositions;
    const double lowWavelength = old / scaling.lowFreqFactor;
    const double highWavelength = old / scaling.highFreqFactor;
    for (double& f : out) {
      const double wavelength = 2 * kPi / f;
      if (wavelength > lowWavelength) {
        f /= scaling.factor;  // long waves: interpolated
      } else if (wavelength >= highWavelength) {
        // in between: a blend, 0 at lowWavelength, 1 at highWavelength
        const double smooth = (old / wavelength - scaling.lowFreqFactor) /
                              (scaling.highFreqFactor - scaling.lowFreqFactor);
        f = (1 - smooth) * f / scaling.factor + smooth * f;
      }  // short waves: kept
    }
  }
  return Status::ok();
}

Status applyRope(MatrixOut x, const std::vector<int>& positions, const std::vector<double>& invFreq,
                 int headDim, RopePairing pairing) {
  return applyRopeOf<double>(x, positions, invFreq, headDim, pairing);
}

Status applyRope(MatrixOut32 x, const std::vector<int>& positions,
                 const std::vector<double>& invFreq, int headDim, RopePairing pairing) {
  return applyRopeOf<float>(x, positions, invFreq, headDim, pairing);
}

}  // namespace attention
