// GELU, the Gaussian error linear unit (Hendrycks & Gimpel 2016), in place:
//   exact  gelu(x) = x/2 (1 + erf(x / sqrt 2))                        ("gelu")
//   tanh   gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   ("gelu_new",
//          "gelu_pytorch_tanh": the form GPT-2 was trained with)
// Shapes: x (n) entries, any layout (the MLP's (T x 4d) hidden layer is one array).
#pragma once

#include <cstddef>

namespace attention {

enum class GeluForm { kTanh, kErf };

void geluInPlace(double* x, std::size_t n, GeluForm form);
void geluInPlace(float* x, std::size_t n, GeluForm form);

}  // namespace attention
