"""GPT-2-small-shaped random model for `npm run bench` (bench/gpt2.mjs), written
at bench time into the folder given as the first argument (never committed:
~1 GB). Run with Debian's Python and python3-onnx:

    /usr/bin/python3 bench/make_gpt2_onnx.py /tmp/gpt2-bench [tokens]

Writes, from one seeded set of random float32 weights (12 layers, 12 heads,
n_embd 768, vocab 50257, n_positions 1024):
  config.json, model.safetensors   the Hugging Face files attention-lab opens
  gpt2_t<T>.onnx                   the same forward pass as an ONNX graph, weights as
                                   initializers (onnxruntime's best case: it may
                                   pre-pack them), for T tokens (default 64):
      input   ids (T) int64
      outputs probabilities (1 x V) of the next token after the last position,
              attention<l> (H x T x T) for every layer l: what Gpt2Model.runIds returns
      nodes   Gather (wte, wpe), LayerNormalization (opset 17), MatMul + Add (Conv1D
              layout), Split/Reshape/Transpose into heads, MatMul, Mul 1/sqrt(d_k),
              Add of a causal mask (-inf above the diagonal), Softmax, GELU in its
              tanh form as elementwise ops, Gemm with wte transposed, Softmax.
"""
import json
import os
import struct
import sys

import numpy as np

# bench/onnx/ (the committed graphs) would shadow the onnx package.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

L, H, D, V, P = 12, 12, 768, 50257, 1024
F = 4 * D
EPS = 1e-5


def weights(rs):
    def n(*shape, scale=0.02):
        return (rs.standard_normal(shape, dtype=np.float32) * scale).astype(np.float32)

    w = {"wte.weight": n(V, D), "wpe.weight": n(P, D, scale=0.01)}
    for l in range(L):
        p = f"h.{l}."
        w[p + "ln_1.weight"] = 1 + n(D, scale=0.1)
        w[p + "ln_1.bias"] = n(D)
        w[p + "attn.c_attn.weight"] = n(D, 3 * D, scale=0.1)
        w[p + "attn.c_attn.bias"] = n(3 * D)
        w[p + "attn.c_proj.weight"] = n(D, D)
        w[p + "attn.c_proj.bias"] = n(D)
        w[p + "ln_2.weight"] = 1 + n(D, scale=0.1)
        w[p + "ln_2.bias"] = n(D)
        w[p + "mlp.c_fc.weight"] = n(D, F)
        w[p + "mlp.c_fc.bias"] = n(F)
        w[p + "mlp.c_proj.weight"] = n(F, D)
        w[p + "mlp.c_proj.bias"] = n(D)
    w["ln_f.weight"] = 1 + n(D, scale=0.1)
    w["ln_f.bias"] = n(D)
    return w


def write_safetensors(path, w):
    header, offset = {}, 0
    for name, a in w.items():
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for a in w.values():
            f.write(np.ascontiguousarray(a, dtype="<f4").tobytes())


def graph(w, T):
    nodes, inits = [], []

    def init(name, value, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def node(op, ins, out, **attrs):
        nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out

    for name, a in w.items():
        init(name, a)
    dk = D // H
    init("positions", np.arange(T), np.int64)
    init("split", [D, D, D], np.int64)
    init("heads_shape", [T, H, dk], np.int64)
    init("model_shape", [T, D], np.int64)
    init("scale", 1 / np.sqrt(dk))
    init("mask", np.where(np.tril(np.ones((T, T))) > 0, 0, -np.inf))
    init("c_gelu", np.sqrt(2 / np.pi))
    init("c_cube", 0.044715)
    init("half", 0.5)
    init("one", 1.0)
    init("last", T - 1, np.int64)
    init("row_shape", [1, D], np.int64)

    x = node("Add", [node("Gather", ["wte.weight", "ids"], "tok"), node("Gather", ["wpe.weight", "positions"], "pos")], "x0")
    outputs = []
    for l in range(L):
        p = f"h.{l}."
        a = node("LayerNormalization", [x, p + "ln_1.weight", p + "ln_1.bias"], f"a_{l}", axis=-1, epsilon=EPS)
        qkv = node("Add", [node("MatMul", [a, p + "attn.c_attn.weight"], f"qkvm_{l}"), p + "attn.c_attn.bias"], f"qkv_{l}")
        nodes.append(helper.make_node("Split", [qkv, "split"], [f"q_{l}", f"k_{l}", f"v_{l}"], axis=1))
        q = node("Transpose", [node("Reshape", [f"q_{l}", "heads_shape"], f"qr_{l}")], f"qh_{l}", perm=[1, 0, 2])
        k = node("Transpose", [node("Reshape", [f"k_{l}", "heads_shape"], f"kr_{l}")], f"kh_{l}", perm=[1, 2, 0])
        v = node("Transpose", [node("Reshape", [f"v_{l}", "heads_shape"], f"vr_{l}")], f"vh_{l}", perm=[1, 0, 2])
        s = node("Add", [node("Mul", [node("MatMul", [q, k], f"s_{l}"), "scale"], f"ss_{l}"), "mask"], f"sm_{l}")
        att = node("Softmax", [s], f"attention{l}", axis=-1)
        outputs.append(helper.make_tensor_value_info(att, TensorProto.FLOAT, [H, T, T]))
        o = node("Reshape", [node("Transpose", [node("MatMul", [att, v], f"o_{l}")], f"ot_{l}", perm=[1, 0, 2]), "model_shape"], f"oc_{l}")
        proj = node("Add", [node("MatMul", [o, p + "attn.c_proj.weight"], f"pm_{l}"), p + "attn.c_proj.bias"], f"p_{l}")
        x = node("Add", [x, proj], f"xa_{l}")
        m = node("LayerNormalization", [x, p + "ln_2.weight", p + "ln_2.bias"], f"m_{l}", axis=-1, epsilon=EPS)
        f = node("Add", [node("MatMul", [m, p + "mlp.c_fc.weight"], f"fm_{l}"), p + "mlp.c_fc.bias"], f"f_{l}")
        cube = node("Mul", [node("Mul", [node("Mul", [f, f], f"f2_{l}"), f], f"f3_{l}"), "c_cube"], f"fc_{l}")
        inner = node("Mul", [node("Add", [f, cube], f"fi_{l}"), "c_gelu"], f"fg_{l}")
        g = node("Mul", [node("Mul", [f, node("Add", [node("Tanh", [inner], f"ft_{l}"), "one"], f"f1_{l}")], f"fh_{l}"), "half"], f"gelu_{l}")
        mlp = node("Add", [node("MatMul", [g, p + "mlp.c_proj.weight"], f"mm_{l}"), p + "mlp.c_proj.bias"], f"mlp_{l}")
        x = node("Add", [x, mlp], f"x{l + 1}")
    h = node("LayerNormalization", [x, "ln_f.weight", "ln_f.bias"], "hf", axis=-1, epsilon=EPS)
    last = node("Reshape", [node("Gather", [h, "last"], "hl", axis=0), "row_shape"], "hlr")
    logits = node("Gemm", [last, "wte.weight"], "logits", transB=1)
    node("Softmax", [logits], "probabilities", axis=-1)
    outputs.insert(0, helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, [1, V]))
    ids = helper.make_tensor_value_info("ids", TensorProto.INT64, [T])
    return helper.make_graph(nodes, "gpt2_small_random", [ids], outputs, inits)


def main():
    out = sys.argv[1]
    T = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    os.makedirs(out, exist_ok=True)
    w = weights(np.random.default_rng(2025))
    config = {"model_type": "gpt2", "n_layer": L, "n_head": H, "n_embd": D, "n_positions": P, "vocab_size": V,
              "n_inner": None, "layer_norm_epsilon": EPS, "activation_function": "gelu_new"}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f)
    write_safetensors(os.path.join(out, "model.safetensors"), w)
    model = helper.make_model(graph(w, T), opset_imports=[helper.make_opsetid("", 17)], producer_name="attention-lab")
    model.ir_version = 8
    onnx.save(model, os.path.join(out, f"gpt2_t{T}.onnx"))
    print(f"wrote {out}: config.json, model.safetensors, gpt2_t{T}.onnx")


if __name__ == "__main__":
    main()
