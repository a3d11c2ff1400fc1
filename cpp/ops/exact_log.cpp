// exactLog: glibc's FMA log() rendered in portable C++ (see exact_log.h for the
// origin of the algorithm and constants, and its licence).
#include "exact_log.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

// Only the fusedMultiplyAdd calls below may fuse (and emulatedFma relies on
// unfused products and sums); every other multiply and add must be
// rounded on its own, whatever -ffp-contract default or -march the build uses.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace attention {

// ---- fused multiply-add without hardware FMA ----------------------------------
// WebAssembly has no fma instruction, and musl's software fma() (128-bit
// integer arithmetic) made exactLog, hence RandomState::randn, several times
// slower than everything else in a chapter's seed edit. This is Boldo and
// Melquiond's emulation ("Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008): the
// product and the sum are computed exactly as pairs of doubles, their small
// parts are added rounded to odd, and one final rounding to nearest gives
// RN(a b + c). Valid when nothing overflows and the product's error term does
// not underflow (|a|, |b| < 2^995 and a b == 0 or |a b| >= 2^-968): true of
// every call in exactLog, whose operands are table values, polynomial
// coefficients, k in [-1074, 1024] and r with |r| in [2^-106, 2^-4]
// (tests/cpp/test_exact_log.cpp checks it against std::fma).
//
// Every helper below is a template over V = double or Double2 (two lanes, one
// SIMD register in WebAssembly): each lane does exactly the scalar IEEE
// operations, so a lane's result has the scalar bits. Masks are all-ones or
// zero words: asMask turns a scalar bool or a lane comparison into one.
namespace {

inline std::uint64_t asMask(bool b) { return 0 - static_cast<std::uint64_t>(b); }
inline Bits2 asMask(Mask2 m) { return reinterpret_cast<Bits2>(m); }

// The lanes of a where mask is set, else those of b.
template <class V, class M>
inline V select(M mask, V a, V b) {
  return fromBits((bitsOf(a) & mask) | (bitsOf(b) & ~mask));
}

// hi + lo == a b exactly (Dekker's product with Veltkamp's split at 2^27 + 1).
template <class V>
inline void exactProduct(V a, V b, V& hi, V& lo) {
  constexpr double kSplit = 0x1p27 + 1.0;
  const V ca = kSplit * a, cb = kSplit * b;
  const V ahi = ca - (ca - a), alo = a - ahi;
  const V bhi = cb - (cb - b), blo = b - bhi;
  hi = a * b;
  lo = ((ahi * bhi - hi) + ahi * blo + alo * bhi) + alo * blo;
}

// hi + lo == a + b exactly (Knuth's branch-free two-sum).
template <class V>
inline void exactSum(V a, V b, V& hi, V& lo) {
  hi = a + b;
  const V bv = hi - a;
  lo = (a - (hi - bv)) + (b - bv);
}

// a + b rounded to odd: the truncation of the exact sum, last bit forced to 1
// when the sum is inexact.
template <class V>
inline V sumRoundedToOdd(V a, V b) {
  V s, e;
  exactSum(a, b, s, e);
  const auto bits = bitsOf(s);
  // Inexact with an even last bit: the odd neighbour towards the exact sum.
  // (s != 0 here: a sum that rounds to zero is exact.) Without branches: the
  // test is a coin toss per call, so a branch would be mispredicted half the time.
  const auto step = ~asMask((e > 0.0) == (s > 0.0)) | 1U;  // +1 or -1
  const auto fix = asMask(e != 0.0) & asMask((bits & 1U) == 0);
  return fromBits(bits + (step & fix));
}

template <class V>
inline V emulatedFmaOf(V a, V b, V c) {
  V uh, ul, th, tl;
  exactProduct(a, b, uh, ul);
  exactSum(c, uh, th, tl);
  const V v = sumRoundedToOdd(tl, ul);
  // th alone keeps the sign of an exact zero (-0 + -0 = -0).
  return select(asMask(v == 0.0), th, th + v);
}

}  // namespace

double emulatedFma(double a, double b, double c) { return emulatedFmaOf(a, b, c); }

namespace {

// The fma of exactLog: the hardware's where there is one, the emulation in wasm
// and for two lanes (no portable two-lane fma).
inline double fusedMultiplyAdd(double a, double b, double c) {
#if defined(__wasm__)
  return emulatedFmaOf(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
inline Double2 fusedMultiplyAdd(Double2 a, Double2 b, Double2 c) { return emulatedFmaOf(a, b, c); }

// A constant in every lane.
template <class V>
inline V splat(double x) {
  if constexpr (std::is_same_v<V, double>) {
    return x;
  } else {
    return V{x, x};
  }
}

// ---- fused multiply-adds that need no emulation --------------------------------
// Three of the main path's fusions have operands for which plain arithmetic
// gives the fused result exactly, so the emulation (about 30 operations) is
// spent only on the polynomial. They are used on every platform, so the
// bit-for-bit test against glibc's log() covers them natively too.

// RN(a b - 1) when a b lies in [1/2, 2]: a b = hi + lo exactly, hi - 1 is exact
// (Sterbenz), so one rounded addition of lo rounds the exact a b - 1 once.
template <class V>
inline V productMinusOne(V a, V b) {
  V hi, lo;
  exactProduct(a, b, hi, lo);
  return (hi - 1.0) + lo;
}

// RN(k c + x) for an integer k and a constant c with `cBits` significant bits:
// k c is exact when k has at most 53 - cBits of them, and then one rounded
// addition is the fused result.
template <int cBits>
inline double integerTimesPlus(int k, double c, double x) {
  constexpr int kRoom = 53 - cBits;  // significant bits k may have
  if (k > -(1 << kRoom) && k < (1 << kRoom)) return static_cast<double>(k) * c + x;
  return fusedMultiplyAdd(static_cast<double>(k), c, x);
}

// ---- Constants of ARM optimized-routines math/log_data.c (LOG_TABLE_BITS 7,
// LOG_POLY_ORDER 6, LOG_POLY1_ORDER 12), unchanged. ----

// ln(2) = kLn2Hi + kLn2Lo; kLn2Hi has trailing zero bits, so k * kLn2Hi is exact.
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
// Their significant bits (53 minus the trailing zeros of the significand).
constexpr int kLn2HiBits = 42;
constexpr int kLn2LoBits = 49;

// log1p(r) - r ~= kPoly[0] r^2 + ... + kPoly[4] r^6 for |r| < 0x1.fp-9.
constexpr double kPoly[5] = {
    -0x1.0000000000001p-1, 0x1.555555551305bp-2,  -0x1.fffffffeb459p-3,
    0x1.999b324f10111p-3,  -0x1.55575e506c89fp-3,
};

// log1p(r) ~= r + kPoly1[0] r^2 + ... + kPoly1[10] r^12 for r in [-0x1p-4, 0x1.09p-4].
constexpr double kPoly1[11] = {
    -0x1p-1,
    0x1.5555555555577p-2,
    -0x1.ffffffffffdcbp-3,
    0x1.999999995dd0cp-3,
    -0x1.55555556745a7p-3,
    0x1.24924a344de3p-3,
    -0x1.fffffa4423d65p-4,
    0x1.c7184282ad6cap-4,
    -0x1.999eb43b068ffp-4,
    0x1.78182f7afd085p-4,
    -0x1.5521375d145cdp-4,
};

// Subinterval i of [0x1.6p-1, 0x1.6p0) (128 of them) has a point c near its
// centre with invc ~= 1/c and logc ~= log(c) (low bits of logc are zero).
struct Entry {
  double invc, logc;
};
constexpr Entry kTable[128] = {
    {0x1.734f0c3e0de9fp+0, -0x1.7cc7f79e69000p-2}, {0x1.713786a2ce91fp+0, -0x1.76feec20d0000p-2},
    {0x1.6f26008fab5a0p+0, -0x1.713e31351e000p-2}, {0x1.6d1a61f138c7dp+0, -0x1.6b85b38287800p-2},
    {0x1.6b1490bc5b4d1p+0, -0x1.65d5590807800p-2}, {0x1.69147332f0cbap+0, -0x1.602d076180000p-2},
    {0x1.6719f18224223p+0, -0x1.5a8ca86909000p-2}, {0x1.6524f99a51ed9p+0, -0x1.54f4356035000p-2},
    {0x1.63356aa8f24c4p+0, -0x1.4f637c36b4000p-2}, {0x1.614b36b9ddc14p+0, -0x1.49da7fda85000p-2},
    {0x1.5f66452c65c4cp+0, -0x1.445923989a800p-2}, {0x1.5d867b5912c4fp+0, -0x1.3edf439b0b800p-2},
    {0x1.5babccb5b90dep+0, -0x1.396ce448f7000p-2}, {0x1.59d61f2d91a78p+0, -0x1.3401e17bda000p-2},
    {0x1.5805612465687p+0, -0x1.2e9e2ef468000p-2}, {0x1.56397cee76bd3p+0, -0x1.2941b3830e000p-2},
    {0x1.54725e2a77f93p+0, -0x1.23ec58cda8800p-2}, {0x1.52aff42064583p+0, -0x1.1e9e129279000p-2},
    {0x1.50f22dbb2bddfp+0, -0x1.1956d2b48f800p-2}, {0x1.4f38f4734ded7p+0, -0x1.141679ab9f800p-2},
    {0x1.4d843cfde2840p+0, -0x1.0edd094ef9800p-2}, {0x1.4bd3ec078a3c8p+0, -0x1.09aa518db1000p-2},
    {0x1.4a27fc3e0258ap+0, -0x1.047e65263b800p-2}, {0x1.4880524d48434p+0, -0x1.feb224586f000p-3},
    {0x1.46dce1b192d0bp+0, -0x1.f474a7517b000p-3}, {0x1.453d9d3391854p+0, -0x1.ea4443d103000p-3},
    {0x1.43a2744b4845ap+0, -0x1.e020d44e9b000p-3}, {0x1.420b54115f8fbp+0, -0x1.d60a22977f000p-3},
    {0x1.40782da3ef4b1p+0, -0x1.cc00104959000p-3}, {0x1.3ee8f5d57fe8fp+0, -0x1.c202956891000p-3},
    {0x1.3d5d9a00b4ce9p+0, -0x1.b81178d811000p-3}, {0x1.3bd60c010c12bp+0, -0x1.ae2c9ccd3d000p-3},
    {0x1.3a5242b75dab8p+0, -0x1.a45402e129000p-3}, {0x1.38d22cd9fd002p+0, -0x1.9a877681df000p-3},
    {0x1.3755bc5847a1cp+0, -0x1.90c6d69483000p-3}, {0x1.35dce49ad36e2p+0, -0x1.87120a645c000p-3},
    {0x1.34679984dd440p+0, -0x1.7d68fb4143000p-3}, {0x1.32f5cceffcb24p+0, -0x1.73cb83c627000p-3},
    {0x1.3187775a10d49p+0, -0x1.6a39a9b376000p-3}, {0x1.301c8373e3990p+0, -0x1.60b3154b7a000p-3},
    {0x1.2eb4ebb95f841p+0, -0x1.5737d76243000p-3}, {0x1.2d50a0219a9d1p+0, -0x1.4dc7b8fc23000p-3},
    {0x1.2bef9a8b7fd2ap+0, -0x1.4462c51d20000p-3}, {0x1.2a91c7a0c1babp+0, -0x1.3b08abc830000p-3},
    {0x1.293726014b530p+0, -0x1.31b996b490000p-3}, {0x1.27dfa5757a1f5p+0, -0x1.2875490a44000p-3},
    {0x1.268b39b1d3bbfp+0, -0x1.1f3b9f879a000p-3}, {0x1.2539d838ff5bdp+0, -0x1.160c8252ca000p-3},
    {0x1.23eb7aac9083bp+0, -0x1.0ce7f57f72000p-3}, {0x1.22a012ba940b6p+0, -0x1.03cdc49fea000p-3},
    {0x1.2157996cc4132p+0, -0x1.f57bdbc4b8000p-4}, {0x1.201201dd2fc9bp+0, -0x1.e370896404000p-4},
    {0x1.1ecf4494d480bp+0, -0x1.d17983ef94000p-4}, {0x1.1d8f5528f6569p+0, -0x1.bf9674ed8a000p-4},
    {0x1.1c52311577e7cp+0, -0x1.adc79202f6000p-4}, {0x1.1b17c74cb26e9p+0, -0x1.9c0c3e7288000p-4},
    {0x1.19e010c2c1ab6p+0, -0x1.8a646b372c000p-4}, {0x1.18ab07bb670bdp+0, -0x1.78d01b3ac0000p-4},
    {0x1.1778a25efbcb6p+0, -0x1.674f145380000p-4}, {0x1.1648d354c31dap+0, -0x1.55e0e6d878000p-4},
    {0x1.151b990275fddp+0, -0x1.4485cdea1e000p-4}, {0x1.13f0ea432d24cp+0, -0x1.333d94d6aa000p-4},
    {0x1.12c8b7210f9dap+0, -0x1.22079f8c56000p-4}, {0x1.11a3028ecb531p+0, -0x1.10e4698622000p-4},
    {0x1.107fbda8434afp+0, -0x1.ffa6c6ad20000p-5}, {0x1.0f5ee0f4e6bb3p+0, -0x1.dda8d4a774000p-5},
    {0x1.0e4065d2a9fcep+0, -0x1.bbcece4850000p-5}, {0x1.0d244632ca521p+0, -0x1.9a1894012c000p-5},
    {0x1.0c0a77ce2981ap+0, -0x1.788583302c000p-5}, {0x1.0af2f83c636d1p+0, -0x1.5715e67d68000p-5},
    {0x1.09ddb98a01339p+0, -0x1.35c8a49658000p-5}, {0x1.08cabaf52e7dfp+0, -0x1.149e364154000p-5},
    {0x1.07b9f2f4e28fbp+0, -0x1.e72c082eb8000p-6}, {0x1.06ab58c358f19p+0, -0x1.a55f152528000p-6},
    {0x1.059eea5ecf92cp+0, -0x1.63d62cf818000p-6}, {0x1.04949cdd12c90p+0, -0x1.228fb8caa0000p-6},
    {0x1.038c6c6f0ada9p+0, -0x1.c317b20f90000p-7}, {0x1.02865137932a9p+0, -0x1.419355daa0000p-7},
    {0x1.0182427ea7348p+0, -0x1.81203c2ec0000p-8}, {0x1.008040614b195p+0, -0x1.0040979240000p-9},
    {0x1.fe01ff726fa1ap-1, 0x1.feff384900000p-9},  {0x1.fa11cc261ea74p-1, 0x1.7dc41353d0000p-7},
    {0x1.f6310b081992ep-1, 0x1.3cea3c4c28000p-6},  {0x1.f25f63ceeadcdp-1, 0x1.b9fc114890000p-6},
    {0x1.ee9c8039113e7p-1, 0x1.1b0d8ce110000p-5},  {0x1.eae8078cbb1abp-1, 0x1.58a5bd001c000p-5},
    {0x1.e741aa29d0c9bp-1, 0x1.95c8340d88000p-5},  {0x1.e3a91830a99b5p-1, 0x1.d276aef578000p-5},
    {0x1.e01e009609a56p-1, 0x1.07598e598c000p-4},  {0x1.dca01e577bb98p-1, 0x1.253f5e30d2000p-4},
    {0x1.d92f20b7c9103p-1, 0x1.42edd8b380000p-4},  {0x1.d5cac66fb5ccep-1, 0x1.606598757c000p-4},
    {0x1.d272caa5ede9dp-1, 0x1.7da76356a0000p-4},  {0x1.cf26e3e6b2ccdp-1, 0x1.9ab434e1c6000p-4},
    {0x1.cbe6da2a77902p-1, 0x1.b78c7bb0d6000p-4},  {0x1.c8b266d37086dp-1, 0x1.d431332e72000p-4},
    {0x1.c5894bd5d5804p-1, 0x1.f0a3171de6000p-4},  {0x1.c26b533bb9f8cp-1, 0x1.067152b914000p-3},
    {0x1.bf583eeece73fp-1, 0x1.147858292b000p-3},  {0x1.bc4fd75db96c1p-1, 0x1.2266ecdca3000p-3},
    {0x1.b951e0c864a28p-1, 0x1.303d7a6c55000p-3},  {0x1.b65e2c5ef3e2cp-1, 0x1.3dfc33c331000p-3},
    {0x1.b374867c9888bp-1, 0x1.4ba366b7a8000p-3},  {0x1.b094b211d304ap-1, 0x1.5933928d1f000p-3},
    {0x1.adbe885f2ef7ep-1, 0x1.66acd2418f000p-3},  {0x1.aaf1d31603da2p-1, 0x1.740f8ec669000p-3},
    {0x1.a82e63fd358a7p-1, 0x1.815c0f51af000p-3},  {0x1.a5740ef09738bp-1, 0x1.8e92954f68000p-3},
    {0x1.a2c2a90ab4b27p-1, 0x1.9bb3602f84000p-3},  {0x1.a01a01393f2d1p-1, 0x1.a8bed1c2c0000p-3},
    {0x1.9d79f24db3c1bp-1, 0x1.b5b515c01d000p-3},  {0x1.9ae2505c7b190p-1, 0x1.c2967ccbcc000p-3},
    {0x1.9852ef297ce2fp-1, 0x1.cf635d5486000p-3},  {0x1.95cbaeea44b75p-1, 0x1.dc1bd3446c000p-3},
    {0x1.934c69de74838p-1, 0x1.e8c01b8cfe000p-3},  {0x1.90d4f2f6752e6p-1, 0x1.f5509c0179000p-3},
    {0x1.8e6528effd79dp-1, 0x1.00e6c121fb800p-2},  {0x1.8bfce9fcc007cp-1, 0x1.071b80e93d000p-2},
    {0x1.899c0dabec30ep-1, 0x1.0d46b9e867000p-2},  {0x1.87427aa2317fbp-1, 0x1.13687334bd000p-2},
    {0x1.84f00acb39a08p-1, 0x1.1980d67234800p-2},  {0x1.82a49e8653e55p-1, 0x1.1f8ffe0cc8000p-2},
    {0x1.8060195f40260p-1, 0x1.2595fd7636800p-2},  {0x1.7e22563e0a329p-1, 0x1.2b9300914a800p-2},
    {0x1.7beb377dcb5adp-1, 0x1.3187210436000p-2},  {0x1.79baa679725c2p-1, 0x1.377266dec1800p-2},
    {0x1.77907f2170657p-1, 0x1.3d54ffbaf3000p-2},  {0x1.756cadbd6130cp-1, 0x1.432eee32fe000p-2},
};

// x in [1 - 2^-4, 1 + 0x1.09p-4): log1p(x - 1) by the degree-12 polynomial, with
// the r^2/2 term split so that it carries extra precision. The fusions are those
// of glibc's FMA build (GCC contracts a * b + c there).
double logNearOne(double x) {
  const double* B = kPoly1;
  const double r = x - 1.0;
  const double r2 = r * r;
  const double r3 = r * r2;
  const double p1 = fusedMultiplyAdd(r2, B[3], fusedMultiplyAdd(r, B[2], B[1]));
  const double p2 = fusedMultiplyAdd(r2, B[6], fusedMultiplyAdd(r, B[5], B[4]));
  const double p3 =
      fusedMultiplyAdd(r3, B[10], fusedMultiplyAdd(r2, B[9], fusedMultiplyAdd(r, B[8], B[7])));
  const double q = fusedMultiplyAdd(fusedMultiplyAdd(p3, r3, p2), r3, p1);  // y = r3 * q
  // r = rhi + rlo with rhi of at most 26 significant bits, so rhi * rhi is exact.
  const double w = r * 0x1p27;
  const double rhi = (r + w) - w;
  const double rlo = r - rhi;
  const double half = rhi * rhi * B[0];  // exact: B[0] == -0.5
  const double hi = r + half;
  double lo = (r - hi) + half;
  lo = fusedMultiplyAdd(B[0] * rlo, rhi + r, lo);
  const double y = fusedMultiplyAdd(r3, q, lo);
  return hi + y;
}

// x = 2^k z with z in [0x1.6p-1, 0x1.6p0), and i, z's subinterval, from the
// bits of a positive normal x (main path).
struct Reduced {
  double z;
  int i, k;
};
inline Reduced reduce(std::uint64_t ix) {
  constexpr std::uint64_t kOff = 0x3fe6000000000000ULL;  // bits of 0x1.6p-1
  const std::uint64_t tmp = ix - kOff;
  return {fromBits(ix - (tmp & (std::uint64_t{0xfff} << 52))), static_cast<int>((tmp >> 45) % 128),
          static_cast<int>(static_cast<std::int64_t>(tmp) >> 52)};  // arithmetic shift
}

// log(x) = k ln2 + log(c) + log1p(r), from r = z/c - 1 = z invc - 1 and
// w = k ln2hi + log(c) (exact); kLoPlus(t) is RN(k ln2lo + t).
template <class V, class KLoPlus>
inline V logFromReduced(V r, V w, KLoPlus kLoPlus) {
  const V hi = w + r;
  const V lo = kLoPlus((w - hi) + r);
  const double* A = kPoly;
  const V r2 = r * r;
  const V r3 = r * r2;
  const V p = fusedMultiplyAdd(fusedMultiplyAdd(r, splat<V>(A[4]), splat<V>(A[3])), r2,
                               fusedMultiplyAdd(r, splat<V>(A[2]), splat<V>(A[1])));
  const V y = fusedMultiplyAdd(r3, p, fusedMultiplyAdd(r2, splat<V>(A[0]), lo));
  return y + hi;
}

// The main path: x not within [1 - 2^-4, 1 + 0x1.09p-4), not zero, subnormal,
// negative, infinite or NaN.
constexpr std::uint64_t kNearOneLo = 0x3fee000000000000ULL;  // bits of 1 - 2^-4
constexpr std::uint64_t kNearOneHi = 0x3ff1090000000000ULL;  // bits of 1 + 0x1.09p-4
inline bool nearOne(std::uint64_t ix) { return ix - kNearOneLo < kNearOneHi - kNearOneLo; }
inline bool special(std::uint64_t ix) {
  const auto top = static_cast<std::uint32_t>(ix >> 48);
  return top - 0x0010U >= 0x7ff0U - 0x0010U;
}

// Two logarithms on the main path whose k ln2lo is exact (|k| < 16, i.e. x in
// [2^-15, 2^16)), in two lanes; false (nothing written) when a lane is not.
inline bool exactLogPair(double x0, double x1, double* y) {
  const std::uint64_t i0 = bitsOf(x0), i1 = bitsOf(x1);
  if (nearOne(i0) || nearOne(i1) || special(i0) || special(i1)) return false;
  const Reduced a = reduce(i0), b = reduce(i1);
  if (a.k <= -16 || a.k >= 16 || b.k <= -16 || b.k >= 16) return false;
  const Double2 k{static_cast<double>(a.k), static_cast<double>(b.k)};
  const Double2 z{a.z, b.z};
  const Double2 invc{kTable[a.i].invc, kTable[b.i].invc};
  const Double2 logc{kTable[a.i].logc, kTable[b.i].logc};
  const Double2 r = productMinusOne(z, invc);
  const Double2 w = k * kLn2Hi + logc;  // exact: |k| <= 1074 (integerTimesPlus)
  const Double2 v =
      logFromReduced(r, w, [&](Double2 t) { return k * kLn2Lo + t; });  // exact: |k| < 16
  y[0] = v[0];
  y[1] = v[1];
  return true;
}

}  // namespace

void exactLogs(const double* x, double* y, int n) {
  int i = 0;
  for (; i + 1 < n; i += 2) {
    if (!exactLogPair(x[i], x[i + 1], y + i)) {
      y[i] = exactLog(x[i]);
      y[i + 1] = exactLog(x[i + 1]);
    }
  }
  if (i < n) y[i] = exactLog(x[i]);
}

double exactLog(double x) {
  std::uint64_t ix = bitsOf(x);
  const auto top = static_cast<std::uint32_t>(ix >> 48);
  if (nearOne(ix)) {
    if (ix == 0x3ff0000000000000ULL) return 0.0;  // log(1) = +0
    return logNearOne(x);
  }
  if (special(ix)) {
    // x is +-0, subnormal, negative, infinite or NaN.
    if (ix * 2 == 0) return -std::numeric_limits<double>::infinity();
    if (ix == 0x7ff0000000000000ULL) return x;  // log(+Infinity) = +Infinity
    if ((top & 0x8000U) || (top & 0x7ff0U) == 0x7ff0U) return (x - x) / (x - x);  // NaN
    // Positive subnormal: scale into the normal range, undo the scale in the exponent.
    ix = bitsOf(x * 0x1p52);
    ix -= std::uint64_t{52} << 52;
  }

  const Reduced x2kz = reduce(ix);
  const int k = x2kz.k;
  // r = z/c - 1 = z * invc - 1 with one rounding (z * invc is within 2^-8 of 1).
  const double r = productMinusOne(x2kz.z, kTable[x2kz.i].invc);
  const double w =
      integerTimesPlus<kLn2HiBits>(k, kLn2Hi, kTable[x2kz.i].logc);  // always exact: |k| <= 1074
  // k ln2lo is exact for |k| < 16, i.e. x in [2^-15, 2^16): every randn input but 1 in 30,000.
  return logFromReduced(r, w, [k](double t) { return integerTimesPlus<kLn2LoBits>(k, kLn2Lo, t); });
}

}  // namespace attention
