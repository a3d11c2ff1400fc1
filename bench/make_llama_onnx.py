"""SmolLM2-135M-shaped random model for `npm run bench:models` (bench/models.mjs),
written at bench time into the folder given as the first argument (never
committed: ~1.9 GB). Run with Debian's Python and python3-onnx:

    /usr/bin/python3 bench/make_llama_onnx.py /tmp/llama-bench [tokens]

Shapes of SmolLM2-135M (model_type llama): 30 layers, hidden 576, 9 query and 3
key/value heads of 64, MLP 1536 (SwiGLU), vocab 49152, tied embeddings,
rope_theta 100000, rms_norm_eps 1e-5. One seeded set of random weights, each
rounded to bfloat16 first so that the float32 and the bfloat16 files (and the
ONNX initializers) hold the same values. Writes:
  config.json, tokenizer.json       (the tokenizer is the small test one: the bench feeds ids)
  f32/model.safetensors             float32
  bf16/model.safetensors            bfloat16 (half the bytes)
  llama_prefill_t<T>.onnx           the T-token forward pass (default 64)
      input   ids (T) int64
      outputs logits (1 x V) of the last position; attention<l> (9 x T x T) for every layer
  llama_decode.onnx                 T new tokens after P cached ones (T, P dynamic; P may be 0)
      inputs  ids (T) int64; past_key_values.<l>.key / .value (3 x P x 64)
      outputs logits (1 x V) of the last new position; present.<l>.key / .value (3 x P+T x 64)
Both graphs: the weights as initializers (onnxruntime's best case: it may pre-pack
them), linear weights stored transposed (in x out) for MatMul as exporters do,
RMSNorm as Pow/ReduceMean/Add/Sqrt/Div/Mul (the pattern onnxruntime fuses),
RoPE with rotate_half from cos/sin tables, the 3 kv heads expanded to 9 for the
MatMuls (Hugging Face's repeat_kv), a causal mask, Softmax, SiLU as x *
Sigmoid(x), and, as attention-lab's forward pass does, the last layer's output
projection and MLP on the last position only.
"""
import json
import os
import shutil
import struct
import sys

import numpy as np

# bench/onnx/ (the committed graphs) would shadow the onnx package.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

L, H, KV, HD, D, F, V = 30, 9, 3, 64, 576, 1536, 49152
THETA, EPS, POSITIONS = 100000.0, 1e-5, 8192
TABLE = 512  # positions of the decode graph's cos/sin tables


def to_bf16_bits(a):
    """float32 -> bfloat16 bits, rounded to nearest even."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def weights(rs):
    def n(*shape, scale=0.02, offset=0.0):
        a = rs.standard_normal(shape, dtype=np.float32) * np.float32(scale) + np.float32(offset)
        return from_bf16_bits(to_bf16_bits(a))

    w = {"model.embed_tokens.weight": n(V, D, scale=0.05)}
    for l in range(L):
        p = f"model.layers.{l}."
        w[p + "input_layernorm.weight"] = n(D, scale=0.1, offset=1.0)
        w[p + "self_attn.q_proj.weight"] = n(H * HD, D, scale=0.08)
        w[p + "self_attn.k_proj.weight"] = n(KV * HD, D, scale=0.08)
        w[p + "self_attn.v_proj.weight"] = n(KV * HD, D, scale=0.04)
        w[p + "self_attn.o_proj.weight"] = n(D, H * HD, scale=0.02)
        w[p + "post_attention_layernorm.weight"] = n(D, scale=0.1, offset=1.0)
        w[p + "mlp.gate_proj.weight"] = n(F, D, scale=0.04)
        w[p + "mlp.up_proj.weight"] = n(F, D, scale=0.04)
        w[p + "mlp.down_proj.weight"] = n(D, F, scale=0.02)
    w["model.norm.weight"] = n(D, scale=0.1, offset=1.0)
    return w


def write_safetensors(path, w, bf16):
    header, offset = {}, 0
    for name, a in w.items():
        nbytes = a.size * (2 if bf16 else 4)
        header[name] = {"dtype": "BF16" if bf16 else "F32", "shape": list(a.shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for a in w.values():
            f.write((to_bf16_bits(a).astype("<u2") if bf16 else np.ascontiguousarray(a, dtype="<f4")).tobytes())


def rope_tables(positions):
    inv = 1.0 / THETA ** (np.arange(0, HD, 2, dtype=np.float64) / HD)
    angles = np.outer(np.arange(positions, dtype=np.float64), inv)
    angles = np.concatenate([angles, angles], axis=1)  # rotate_half pairs i with i + HD/2
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def init(self, name, value, dtype=np.float32):
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def node(self, op, ins, out=None, **attrs):
        self.count += 1
        out = out or f"{op.lower()}_{self.count}"
        self.nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out


def build(w, decode, T=None):
    """The forward pass as an ONNX graph: the prefill one (T fixed) or the decode one."""
    g = Graph()
    node = g.node
    for name, a in w.items():
        if name.endswith("_proj.weight"):
            g.init(name + ".T", a.T)  # (in x out) for MatMul
        else:
            g.init(name, a)
    for name, value in {"eps": EPS, "two": 2.0, "scale": 1 / np.sqrt(HD)}.items():
        g.init(name, value)
    g.init("q_shape", [-1, H, HD], np.int64)
    g.init("kv_shape", [-1, KV, HD], np.int64)
    g.init("groups", [1, H // KV, 1, 1], np.int64)
    g.init("heads9", [H, -1, HD], np.int64)
    g.init("model_shape", [-1, H * HD], np.int64)
    g.init("half_lo", [0], np.int64)
    g.init("half_mid", [HD // 2], np.int64)
    g.init("half_hi", [HD], np.int64)
    g.init("last_axis", [-1], np.int64)
    g.init("axis0", [0], np.int64)
    g.init("axis1", [1], np.int64)

    inputs, outputs = [helper.make_tensor_value_info("ids", TensorProto.INT64, ["T" if decode else T])], []
    if decode:
        g.init("one_i", 1, np.int64)
        g.init("zero_i", 0, np.int64)
        g.init("zero_f", 0.0)
        g.init("minus_inf", -np.inf)
        cos, sin = rope_tables(TABLE)
        g.init("cos_table", cos)
        g.init("sin_table", sin)
        past_len = node("Gather", [node("Shape", ["past_key_values.0.key"]), "axis1"])  # (1,)
        new_len = node("Shape", ["ids"])  # (1,)
        total = node("Add", [past_len, new_len])
        p0 = node("Squeeze", [past_len, "axis0"])
        t_total = node("Squeeze", [total, "axis0"])
        positions = node("Range", [p0, t_total, "one_i"])
        cos_t = node("Gather", ["cos_table", positions], "cos")
        sin_t = node("Gather", ["sin_table", positions], "sin")
        rows = node("Unsqueeze", [positions, "axis1"])  # (T x 1)
        cols = node("Unsqueeze", [node("Range", ["zero_i", t_total, "one_i"]), "axis0"])  # (1 x P+T)
        mask = node("Where", [node("Greater", [cols, rows]), "minus_inf", "zero_f"], "mask")
        last = node("Sub", [node("Squeeze", [new_len, "axis0"]), "one_i"], "last")
    else:
        cos, sin = rope_tables(T)
        cos_t, sin_t = g.init("cos", cos), g.init("sin", sin)
        mask = g.init("mask", np.where(np.tril(np.ones((T, T))) > 0, 0, -np.inf))
        last = g.init("last", T - 1, np.int64)

    def rms(x, weight):
        mean = node("ReduceMean", [node("Pow", [x, "two"])], axes=[-1], keepdims=1)
        return node("Mul", [node("Div", [x, node("Sqrt", [node("Add", [mean, "eps"])])]), weight])

    def rope(x):  # x (heads x T x HD)
        lo = node("Slice", [x, "half_lo", "half_mid", "last_axis"])
        hi = node("Slice", [x, "half_mid", "half_hi", "last_axis"])
        rotated = node("Concat", [node("Neg", [hi]), lo], axis=-1)
        return node("Add", [node("Mul", [x, cos_t]), node("Mul", [rotated, sin_t])])

    def heads(x, shape):  # (T x n HD) -> (n x T x HD)
        return node("Transpose", [node("Reshape", [x, shape])], perm=[1, 0, 2])

    def nine(x):  # (3 x L x HD) -> (9 x L x HD): kv head g serves query heads 3g .. 3g+2
        return node("Reshape", [node("Expand", [node("Unsqueeze", [x, "axis1"]), "groups"]), "heads9"])

    def one_row(x):  # the last position's row, (1 x width)
        return node("Unsqueeze", [node("Gather", [x, last], axis=0), "axis0"])

    x = node("Gather", ["model.embed_tokens.weight", "ids"])
    for l in range(L):
        p = f"model.layers.{l}."
        n = rms(x, p + "input_layernorm.weight")
        q = rope(heads(node("MatMul", [n, p + "self_attn.q_proj.weight.T"]), "q_shape"))
        k = rope(heads(node("MatMul", [n, p + "self_attn.k_proj.weight.T"]), "kv_shape"))
        v = heads(node("MatMul", [n, p + "self_attn.v_proj.weight.T"]), "kv_shape")
        if decode:
            for kind, new in (("key", k), ("value", v)):
                past = f"past_key_values.{l}.{kind}"
                inputs.append(helper.make_tensor_value_info(past, TensorProto.FLOAT, [KV, "P", HD]))
                present = node("Concat", [past, new], f"present.{l}.{kind}", axis=1)
                outputs.append(helper.make_tensor_value_info(present, TensorProto.FLOAT, [KV, "P+T", HD]))
                if kind == "key":
                    k = present
                else:
                    v = present
        scores = node("MatMul", [q, node("Transpose", [nine(k)], perm=[0, 2, 1])])
        att = node("Softmax", [node("Add", [node("Mul", [scores, "scale"]), mask])], f"attention{l}", axis=-1)
        if not decode:
            outputs.append(helper.make_tensor_value_info(att, TensorProto.FLOAT, [H, T, T]))
        o = node("Reshape", [node("Transpose", [node("MatMul", [att, nine(v)])], perm=[1, 0, 2]), "model_shape"])
        if l == L - 1:  # only the last position counts from here on
            o, x = one_row(o), one_row(x)
        x = node("Add", [x, node("MatMul", [o, p + "self_attn.o_proj.weight.T"])])
        m = rms(x, p + "post_attention_layernorm.weight")
        gate = node("MatMul", [m, p + "mlp.gate_proj.weight.T"])
        up = node("MatMul", [m, p + "mlp.up_proj.weight.T"])
        act = node("Mul", [node("Mul", [gate, node("Sigmoid", [gate])]), up])
        x = node("Add", [x, node("MatMul", [act, p + "mlp.down_proj.weight.T"])])
    h = rms(x, "model.norm.weight")
    node("Gemm", [h, "model.embed_tokens.weight"], "logits", transB=1)
    outputs.insert(0, helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, V]))
    name = "smollm2_shapes_decode" if decode else "smollm2_shapes_prefill"
    return helper.make_graph(g.nodes, name, inputs, outputs, g.inits)


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="attention-lab")
    model.ir_version = 8
    onnx.save(model, path)


def main():
    out = sys.argv[1]
    T = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    here = os.path.dirname(os.path.abspath(__file__))
    for sub in ("f32", "bf16"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    w = weights(np.random.default_rng(2026))
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": L,
              "num_attention_heads": H, "num_key_value_heads": KV, "hidden_size": D, "head_dim": HD,
              "intermediate_size": F, "vocab_size": V, "max_position_embeddings": POSITIONS,
              "rms_norm_eps": EPS, "rope_theta": THETA, "hidden_act": "silu", "tie_word_embeddings": True,
              "attention_bias": False, "mlp_bias": False, "bos_token_id": 0, "eos_token_id": 0}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f)
    shutil.copy(os.path.join(here, "..", "tests", "fixtures", "llama", "tokenizer.json"), os.path.join(out, "tokenizer.json"))
    write_safetensors(os.path.join(out, "f32", "model.safetensors"), w, bf16=False)
    write_safetensors(os.path.join(out, "bf16", "model.safetensors"), w, bf16=True)
    save(build(w, decode=False, T=T), os.path.join(out, f"llama_prefill_t{T}.onnx"))
    save(build(w, decode=True), os.path.join(out, "llama_decode.onnx"))
    print(f"wrote {out}: config.json, tokenizer.json, f32/ and bf16/model.safetensors, llama_prefill_t{T}.onnx, llama_decode.onnx")


if __name__ == "__main__":
    main()
