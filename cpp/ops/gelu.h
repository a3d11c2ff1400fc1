// GELU, the Gaussian error linear unit (Hendrycks & Gimpel 2016), in place:
//   exact  gelu(x) = x/2 (1 + erf(x / sqrt 2))                        ("gelu")
//   tanh   gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   ("gelu_new",
//          "gelu_pytorch_tanh": the form GPT-2 was trained with)
// Shapes: x (n) entries, any layout (the MLP's (T x 4d) hidden layer is one array).
//
// geluInPlace's float tanh form runs on SIMD vectors through the identity
// (1 + tanh(u)) / 2 = sigmoid(2u) = 1 / (1 + exp(-2u)), with the softmax's
// vector exp (softmax_exp.h, <= 2 ulp): GPT-2 small calls it 2.4 M times a
// forward pass, and std::tanh one value at a time took ~15% of the pass in
// wasm. It is also more accurate than the formula above in float, whose
// 1 + tanh(u) cancels for u << 0. geluReferenceInPlace is that formula, one
// value at a time with std::tanh / std::erf: the tests' reference.
#pragma once

#include <cstddef>

namespace attention {

enum class GeluForm { kTanh, kErf };

void geluInPlace(double* x, std::size_t n, GeluForm form);
void geluInPlace(float* x, std::size_t n, GeluForm form);

void geluReferenceInPlace(double* x, std::size_t n, GeluForm form);
void geluReferenceInPlace(float* x, std::size_t n, GeluForm form);

}  // namespace attention
