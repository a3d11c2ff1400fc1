"""Writes the ONNX graphs that `npm run bench` (bench/peers.mjs) runs in onnxruntime-web.

Run with Debian's Python and python3-onnx (apt package), from this folder:

    /usr/bin/python3 make_attention_onnx.py

Outputs, committed next to this script in onnx/ (a few hundred bytes each: every
matrix, weights included, is a graph input, so the files hold no data):

  sdpa_n{64,256,1024}_{float32,float64}.onnx
      inputs  Q, K, V: (n x d), d = 64
      outputs output = weights V (n x d), weights = softmax(Q K^T / sqrt(d)) (n x n)
      nodes   Transpose(K), MatMul, Mul by 1/sqrt(d), Softmax(axis=-1), MatMul
  mha_n512_d512_h8_{float32,float64}.onnx
      inputs  X (n x d_model) used as Q, K and V; Wq, Wk, Wv, Wo (d_model x d_model)
      outputs output (n x d_model), weights (h x n x n)
      The semantics of attention-lab's multiHeadAttention (cpp/ops/attention.cpp):
      project X by Wq, Wk, Wv (no biases); head i takes columns [i d_k, (i+1) d_k)
      of each projection, d_k = d_model / h; scaled dot-product attention per head
      with 1/sqrt(d_k); heads concatenated back in column order; projected by Wo.

Both results are graph outputs because the JS API returns both (same work).
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "onnx")
OPSET = 13  # Softmax over one axis (axis=-1) since opset 13
D = 64
SIZES = (64, 256, 1024)
MHA = dict(n=512, d_model=512, heads=8)
TYPES = {"float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE}


def const(name, value, dtype):
    """A scalar or int64 vector initializer."""
    array = np.asarray(value, dtype=dtype)
    return numpy_helper.from_array(array, name)


def sdpa_nodes(q, k, v, scale_name, out, weights, perm):
    """softmax(q k^T * scale) v; `perm` transposes the last two axes of k."""
    return [
        helper.make_node("Transpose", [k], [k + "_t"], perm=perm),
        helper.make_node("MatMul", [q, k + "_t"], [q + "_scores"]),
        helper.make_node("Mul", [q + "_scores", scale_name], [q + "_scaled"]),
        helper.make_node("Softmax", [q + "_scaled"], [weights], axis=-1),
        helper.make_node("MatMul", [weights, v], [out]),
    ]


def save(graph, name):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="attention-lab")
    model.ir_version = 8  # readable by onnxruntime 1.x
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name))
    print(name)


def sdpa_graph(n, precision):
    t = TYPES[precision]
    np_t = np.float32 if precision == "float32" else np.float64
    inputs = [helper.make_tensor_value_info(x, t, [n, D]) for x in ("Q", "K", "V")]
    outputs = [
        helper.make_tensor_value_info("output", t, [n, D]),
        helper.make_tensor_value_info("weights", t, [n, n]),
    ]
    nodes = sdpa_nodes("Q", "K", "V", "scale", "output", "weights", perm=[1, 0])
    init = [const("scale", 1 / np.sqrt(D), np_t)]
    return helper.make_graph(nodes, f"sdpa_n{n}_{precision}", inputs, outputs, init)


def mha_graph(n, d_model, heads, precision):
    t = TYPES[precision]
    np_t = np.float32 if precision == "float32" else np.float64
    dk = d_model // heads
    inputs = [helper.make_tensor_value_info("X", t, [n, d_model])] + [
        helper.make_tensor_value_info(w, t, [d_model, d_model]) for w in ("Wq", "Wk", "Wv", "Wo")
    ]
    outputs = [
        helper.make_tensor_value_info("output", t, [n, d_model]),
        helper.make_tensor_value_info("weights", t, [heads, n, n]),
    ]
    nodes = []
    for p in ("q", "k", "v"):
        # (n x d_model) -> (n x h x d_k) -> (h x n x d_k): head i = columns [i d_k, (i+1) d_k).
        nodes += [
            helper.make_node("MatMul", ["X", "W" + p], [p + "_proj"]),
            helper.make_node("Reshape", [p + "_proj", "split_shape"], [p + "_split"]),
            helper.make_node("Transpose", [p + "_split"], [p + "_heads"], perm=[1, 0, 2]),
        ]
    nodes += sdpa_nodes("q_heads", "k_heads", "v_heads", "scale", "heads_out", "weights", perm=[0, 2, 1])
    nodes += [
        helper.make_node("Transpose", ["heads_out"], ["heads_rows"], perm=[1, 0, 2]),
        helper.make_node("Reshape", ["heads_rows", "concat_shape"], ["concat"]),
        helper.make_node("MatMul", ["concat", "Wo"], ["output"]),
    ]
    init = [
        const("scale", 1 / np.sqrt(dk), np_t),
        const("split_shape", [n, heads, dk], np.int64),
        const("concat_shape", [n, d_model], np.int64),
    ]
    return helper.make_graph(nodes, f"mha_n{n}_d{d_model}_h{heads}_{precision}", inputs, outputs, init)


def main():
    os.makedirs(OUT, exist_ok=True)
    for precision in TYPES:
        for n in SIZES:
            save(sdpa_graph(n, precision), f"sdpa_n{n}_{precision}.onnx")
        save(
            mha_graph(MHA["n"], MHA["d_model"], MHA["heads"], precision),
            f"mha_n{MHA['n']}_d{MHA['d_model']}_h{MHA['heads']}_{precision}.onnx",
        )


if __name__ == "__main__":
    main()
