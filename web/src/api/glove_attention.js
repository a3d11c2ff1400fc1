// Attention between two sentences (the GloVe chapter): dot-product attention,
// trainable attention with projections W_q, W_k, W_v, and additive attention
// over every query-key pair. The arithmetic runs in the wasm core
// (cpp/glove_attention.h); the projection parameters live here, in JS.
import { toMatrix, toVector } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';
import { randomStateApi } from './random_state.js';

function checkSeed(fn, seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`${fn}: seed must be an integer in [0, 2^32), got ${String(seed)}`);
  }
  return seed;
}

function checkFeatures(fn, name, value) {
  if (!Number.isInteger(value) || value < 1 || value > 4096) {
    throw new RangeError(`${fn}: ${name} must be an integer in [1, 4096], got ${String(value)}`);
  }
  return value;
}

/**
 * PyTorch nn.Linear's default initialisation: weight (out × in) and bias (out)
 * uniform in [-1/sqrt(in), 1/sqrt(in)], drawn weight first, row by row, from a
 * NumPy-exact RandomState: the same numbers as
 * `rs.uniform(-b, b, (out, in)); rs.uniform(-b, b, out)` with
 * `rs = np.random.RandomState(seed)`, since NumPy computes uniform(low, high)
 * as low + (high - low) * random_sample().
 */
function initLinear(rs, inFeatures, outFeatures) {
  const bound = 1 / Math.sqrt(inFeatures);
  const draw = (count) => rs.rand(1, count).data.map((u) => -bound + (bound - -bound) * u);
  return { weight: new Matrix(outFeatures, inFeatures, draw(outFeatures * inFeatures)), bias: draw(outFeatures) };
}

/** TrainableAttention's projections W_q, W_k, W_v (in → out), in draw order. */
const trainableShapes = ({ inFeatures, outFeatures }) => ({
  Wq: [inFeatures, outFeatures],
  Wk: [inFeatures, outFeatures],
  Wv: [inFeatures, outFeatures],
});

/** AdditiveAttention's W_q, W_k (in → hidden) and w_s (hidden → 1), in draw order. */
const additiveShapes = ({ inFeatures, hiddenFeatures }) => ({
  Wq: [inFeatures, hiddenFeatures],
  Wk: [inFeatures, hiddenFeatures],
  Ws: [hiddenFeatures, 1],
});

/** Draws every layer of `shapes` ({ name: [in, out] }, in draw order) from `rs`. */
function drawLayers(rs, shapes) {
  return Object.freeze(Object.fromEntries(Object.entries(shapes).map(([name, [i, o]]) => [name, initLinear(rs, i, o)])));
}

/** Validates explicit parameters against `shapes` ({ name: [in, out] }). */
function checkLayers(fn, params, shapes) {
  if (params === null || typeof params !== 'object') {
    throw new TypeError(`${fn}: params must be { ${Object.keys(shapes).join(', ')} }`);
  }
  return Object.freeze(
    Object.fromEntries(Object.entries(shapes).map(([name, [i, o]]) => [name, checkLinear(fn, name, params[name], i, o)])),
  );
}

function checkLinear(fn, name, layer, inFeatures, outFeatures) {
  if (layer === null || typeof layer !== 'object') throw new TypeError(`${fn}: params.${name} must be { weight, bias }`);
  const weight = toMatrix(layer.weight, fn, `params.${name}.weight`);
  const bias = toVector(layer.bias, fn, `params.${name}.bias`);
  if (weight.rows !== outFeatures || weight.cols !== inFeatures) {
    throw new RangeError(`${fn}: params.${name}.weight is ${weight.rows}x${weight.cols} but must be ${outFeatures}x${inFeatures} (out x in)`);
  }
  if (bias.length !== outFeatures) {
    throw new RangeError(`${fn}: params.${name}.bias has ${bias.length} entries but must have ${outFeatures}`);
  }
  return { weight: new Matrix(weight.rows, weight.cols, weight.data), bias };
}

/** @param {any} core the instantiated Emscripten module */
export function gloveAttentionApi(core) {
  const { RandomState } = randomStateApi(core);
  /** Runs `draw(rs)` with a RandomState seeded like np.random.seed(seed), freed afterwards. */
  const withRandomState = (seed, draw) => {
    const rs = new RandomState(seed);
    try {
      return draw(rs);
    } finally {
      rs.delete();
    }
  };
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());

  // x: (n × in), layer.weight: (out × in), layer.bias: (out) -> (n × out)
  function linear(fn, x, layer) {
    const w = layer.weight;
    return withHeap(core, (heap) => {
      const out = heap.alloc(x.rows * w.rows);
      check(core._gloveLinear(heap.input(x.data), x.rows, x.cols, heap.input(w.data), w.rows, w.cols,
        heap.input(layer.bias), layer.bias.length, out), fn);
      return new Matrix(x.rows, w.rows, heap.read(out, x.rows * w.rows));
    });
  }

  function dotAttention(fn, q, k, v) {
    return withHeap(core, (heap) => {
      const weights = heap.alloc(q.rows * k.rows);
      const output = heap.alloc(q.rows * v.cols);
      check(core._gloveDotAttention(heap.input(q.data), q.rows, q.cols, heap.input(k.data), k.rows, k.cols,
        heap.input(v.data), v.rows, v.cols, weights, output), fn);
      return {
        weights: new Matrix(q.rows, k.rows, heap.read(weights, q.rows * k.rows)),
        output: new Matrix(q.rows, v.cols, heap.read(output, q.rows * v.cols)),
      };
    });
  }

  function inputs(fn, queries, keys, values) {
    const q = toMatrix(queries, fn, 'queries');
    const k = toMatrix(keys, fn, 'keys');
    const v = values === undefined ? k : toMatrix(values, fn, 'values');
    return { q, k, v };
  }

  function requireInFeatures(fn, m, name, inFeatures) {
    if (m.cols !== inFeatures) {
      throw new RangeError(`${fn}: ${name} has ${m.cols} columns but the projections take ${inFeatures} features (${name} is ${m.rows}x${m.cols})`);
    }
  }

  class TrainableAttention {
    constructor({ inFeatures = 100, outFeatures = 64, seed = 0, params } = {}) {
      const fn = 'createTrainableAttention';
      this.inFeatures = checkFeatures(fn, 'inFeatures', inFeatures);
      this.outFeatures = checkFeatures(fn, 'outFeatures', outFeatures);
      if (params !== undefined) {
        this.seed = undefined;
        this.params = checkLayers(fn, params, trainableShapes(this));
      } else {
        this.reseed(seed);
      }
    }

    /** Draws new W_q, W_k, W_v (in that order) from `seed`. */
    reseed(seed) {
      checkSeed('TrainableAttention.reseed', seed);
      this.seed = seed;
      this.params = withRandomState(seed, (rs) => drawLayers(rs, trainableShapes(this)));
      return this;
    }

    /** Q = W_q queries, K = W_k keys, V = W_v values; weights = softmax(Q Kᵀ / sqrt(out)), output = weights V. */
    forward(queries, keys, values) {
      const fn = 'TrainableAttention.forward';
      const { q, k, v } = inputs(fn, queries, keys, values);
      requireInFeatures(fn, q, 'queries', this.inFeatures);
      requireInFeatures(fn, k, 'keys', this.inFeatures);
      requireInFeatures(fn, v, 'values', this.inFeatures);
      const Q = linear(fn, q, this.params.Wq);
      const K = linear(fn, k, this.params.Wk);
      const V = linear(fn, v, this.params.Wv);
      return { ...dotAttention(fn, Q, K, V), queries: Q, keys: K, values: V };
    }
  }

  class AdditiveAttention {
    constructor({ inFeatures = 100, hiddenFeatures = 64, seed = 0, params } = {}) {
      const fn = 'createAdditiveAttention';
      this.inFeatures = checkFeatures(fn, 'inFeatures', inFeatures);
      this.hiddenFeatures = checkFeatures(fn, 'hiddenFeatures', hiddenFeatures);
      if (params !== undefined) {
        this.seed = undefined;
        this.params = checkLayers(fn, params, additiveShapes(this));
      } else {
        this.reseed(seed);
      }
    }

    /** Draws new W_q, W_k and w_s (in that order) from `seed`. */
    reseed(seed) {
      checkSeed('AdditiveAttention.reseed', seed);
      this.seed = seed;
      this.params = withRandomState(seed, (rs) => drawLayers(rs, additiveShapes(this)));
      return this;
    }

    /**
     * scores(i, j) = w_s · tanh(W_q q_i + b_q + W_k k_j + b_k) + b_s for every pair;
     * weights = softmax of each row; output = weights values (values default to keys).
     */
    forward(queries, keys, values) {
      const fn = 'AdditiveAttention.forward';
      const { q, k, v } = inputs(fn, queries, keys, values);
      requireInFeatures(fn, q, 'queries', this.inFeatures);
      requireInFeatures(fn, k, 'keys', this.inFeatures);
      const Q = linear(fn, q, this.params.Wq);
      const K = linear(fn, k, this.params.Wk);
      const ws = this.params.Ws;
      return withHeap(core, (heap) => {
        const n = Q.rows;
        const m = K.rows;
        const scores = heap.alloc(n * m);
        const weights = heap.alloc(n * m);
        const output = heap.alloc(n * v.cols);
        check(core._gloveAdditiveAttention(heap.input(Q.data), n, Q.cols, heap.input(K.data), m, K.cols,
          heap.input(ws.weight.data), ws.weight.cols, ws.bias[0], heap.input(v.data), v.rows, v.cols,
          scores, weights, output), fn);
        return {
          scores: new Matrix(n, m, heap.read(scores, n * m)),
          weights: new Matrix(n, m, heap.read(weights, n * m)),
          output: new Matrix(n, v.cols, heap.read(output, n * v.cols)),
          queries: Q,
          keys: K,
        };
      });
    }
  }

  return {
    /** Trainable dot-product attention with nn.Linear-initialised W_q, W_k, W_v. */
    createTrainableAttention(options = {}) {
      return new TrainableAttention(options);
    },

    /** Additive attention over every query-key pair, with nn.Linear-initialised W_q, W_k, w_s. */
    createAdditiveAttention(options = {}) {
      return new AdditiveAttention(options);
    },
  };
}
