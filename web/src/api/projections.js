// Attention with learned projections, as in the GloVe sentence chapter (a
// model built from the ops: linear layers, scaled dot-product attention and
// the pairwise additive score):
//   TrainableAttention: Q = W_q q, K = W_k k, V = W_v v, then scaled dot-product attention;
//   AdditiveAttention:  scores(i, j) = w_s · tanh(W_q q_i + W_k k_j) + b_s over every pair.
// Parameters are nn.Linear-initialised from the NumPy-exact RandomState and
// live here, in JS; the arithmetic runs in the wasm core.
import { toMatrix, toVector } from './convert.js';
import { describe, ownProperty, readOptions, requireInteger, throwForStatus } from './errors.js';
import { ABSENT, withHeap } from './heap.js';
import { Matrix } from './matrix.js';

const MAX_FEATURES = 4096;

/**
 * PyTorch nn.Linear's default initialisation: weight (out × in) and bias (out)
 * uniform in [-1/sqrt(in), 1/sqrt(in)], drawn weight first, row by row: the
 * same numbers as `rs.uniform(-b, b, (out, in)); rs.uniform(-b, b, out)` with
 * `rs = np.random.RandomState(seed)`, since NumPy computes uniform(low, high)
 * as low + (high - low) * random_sample().
 */
function initLinear(rs, inFeatures, outFeatures) {
  const bound = 1 / Math.sqrt(inFeatures);
  const draw = (count) => rs.rand(1, count).data.map((u) => -bound + (bound - -bound) * u);
  return frozenLayer(new Matrix(outFeatures, inFeatures, draw(outFeatures * inFeatures)), draw(outFeatures));
}

// A layer's shape is fixed once made: weight.rows, weight.data and the layer's fields cannot be
// replaced (the numbers inside the arrays may still be edited, which changes results, not sizes).
const frozenLayer = (weight, bias) => Object.freeze({ weight: Object.freeze(weight), bias });

/** Draws every layer of `shapes` ({ name: [in, out] }, in draw order) from `rs`. */
function drawLayers(rs, shapes) {
  return Object.freeze(
    Object.fromEntries(Object.entries(shapes).map(([name, [i, o]]) => [name, initLinear(rs, i, o)])),
  );
}

function checkLinear(fn, name, layer, inFeatures, outFeatures) {
  if (layer === null || typeof layer !== 'object')
    throw new TypeError(`${fn}: params.${name} must be { weight, bias }, got ${describe(layer)}`);
  const weight = toMatrix(ownProperty(layer, 'weight'), fn, `params.${name}.weight`);
  const bias = toVector(ownProperty(layer, 'bias'), fn, `params.${name}.bias`);
  if (weight.rows !== outFeatures || weight.cols !== inFeatures) {
    throw new RangeError(
      `${fn}: params.${name}.weight is ${weight.rows}x${weight.cols} but must be ${outFeatures}x${inFeatures} (out x in)`,
    );
  }
  if (bias.length !== outFeatures) {
    throw new RangeError(`${fn}: params.${name}.bias has ${bias.length} entries but must have ${outFeatures}`);
  }
  return frozenLayer(new Matrix(weight.rows, weight.cols, weight.data), bias);
}

/** Validates explicit parameters against `shapes` ({ name: [in, out] }). */
function checkLayers(fn, params, shapes) {
  if (params === null || typeof params !== 'object') {
    throw new TypeError(`${fn}: params must be { ${Object.keys(shapes).join(', ')} }, got ${describe(params)}`);
  }
  return Object.freeze(
    Object.fromEntries(
      Object.entries(shapes).map(([name, [i, o]]) => [name, checkLinear(fn, name, ownProperty(params, name), i, o)]),
    ),
  );
}

/**
 * @param {any} core the instantiated Emscripten module
 * @param {(seed: number, draw: (rs: any) => any) => any} withRandomState from random_state.js,
 *   so the parameters come from the API's one RandomState class
 */
export function projectionsApi(core, withRandomState) {
  // x: (n × in), layer.weight: (out × in), layer.bias: (out) -> x weightᵀ + bias (n × out)
  function linear(fn, x, layer) {
    return withHeap(core, fn, (heap) => {
      const y = heap.output(x.rows, layer.weight.rows, 'projection');
      throwForStatus(
        core,
        core._linear({
          x: heap.matrix(x, 'x'),
          weight: heap.matrix(layer.weight, 'weight'),
          bias: heap.vector(layer.bias, 'bias'),
          y,
        }),
        fn,
      );
      return heap.readMatrix(y);
    });
  }

  function sdpa(fn, q, k, v) {
    return withHeap(core, fn, (heap) => {
      const output = heap.output(q.rows, v.cols, 'output');
      const weights = heap.output(q.rows, k.rows, 'weights');
      throwForStatus(
        core,
        core._attention({
          q: heap.matrix(q, 'queries'),
          k: heap.matrix(k, 'keys'),
          v: heap.matrix(v, 'values'),
          mask: ABSENT,
          causal: false,
          window: 0,
          scaled: true,
          output,
          weights,
        }),
        fn,
      );
      return { weights: heap.readMatrix(weights), output: heap.readMatrix(output) };
    });
  }

  function inputs(fn, queries, keys, values, inFeatures) {
    const q = toMatrix(queries, fn, 'queries');
    const k = toMatrix(keys, fn, 'keys');
    const v = values === undefined ? k : toMatrix(values, fn, 'values');
    for (const [m, name] of [
      [q, 'queries'],
      [k, 'keys'],
    ]) {
      if (m.cols !== inFeatures) {
        throw new RangeError(
          `${fn}: ${name} has ${m.cols} columns but the projections take ${inFeatures} features (${name} is ${m.rows}x${m.cols})`,
        );
      }
    }
    return { q, k, v };
  }

  /** The shared constructor logic: sizes, then explicit params or a seeded draw. */
  /**
   * The shared constructor logic: sizes, then explicit params or a seeded draw.
   * The sizes are read-only and `params` is a frozen copy (only reseed() replaces it), so what
   * forward() copies into the wasm heap always has the shapes the constructor checked.
   */
  class ProjectedAttention {
    #shapes;
    #kind;
    #params;
    #seed;

    constructor(kind, fn, options, sizeName, shapes) {
      const o = readOptions(options, ['inFeatures', sizeName, 'seed', 'params'], fn);
      this.#kind = kind;
      const readOnly = (key, value) => Object.defineProperty(this, key, { value, enumerable: true });
      // An absent option takes its default; null is a value, refused like any other non-number.
      const given = (key, fallback) => (o[key] === undefined ? fallback : o[key]);
      readOnly('inFeatures', requireInteger(given('inFeatures', 100), fn, 'inFeatures', 1, MAX_FEATURES));
      readOnly(sizeName, requireInteger(given(sizeName, 64), fn, sizeName, 1, MAX_FEATURES));
      this.#shapes = shapes(this);
      if (o.params !== undefined) {
        this.#params = checkLayers(fn, o.params, this.#shapes);
      } else {
        this.reseed(given('seed', 0));
      }
    }

    /** { name: { weight: Matrix (out x in), bias: Float64Array (out) } }, frozen. */
    get params() {
      return this.#params;
    }

    /** The seed the parameters were drawn from (undefined for explicit params). */
    get seed() {
      return this.#seed;
    }

    /** Draws new parameters (in declaration order) from `seed`. */
    reseed(seed) {
      requireInteger(seed, `${this.#kind}.reseed`, 'seed', 0, 2 ** 32 - 1);
      this.#seed = seed;
      this.#params = withRandomState(seed, (rs) => drawLayers(rs, this.#shapes));
      return this;
    }
  }

  class TrainableAttention extends ProjectedAttention {
    constructor(options) {
      super(
        'TrainableAttention',
        'createTrainableAttention',
        options,
        'outFeatures',
        ({ inFeatures, outFeatures }) => ({
          Wq: [inFeatures, outFeatures],
          Wk: [inFeatures, outFeatures],
          Wv: [inFeatures, outFeatures],
        }),
      );
    }

    /** Q = W_q queries, K = W_k keys, V = W_v values; weights = softmax(Q Kᵀ / sqrt(out)), output = weights V. */
    forward(queries, keys, values) {
      const fn = 'TrainableAttention.forward';
      const { q, k, v } = inputs(fn, queries, keys, values, this.inFeatures);
      if (v.cols !== this.inFeatures) {
        throw new RangeError(
          `${fn}: values has ${v.cols} columns but the projections take ${this.inFeatures} features (values is ${v.rows}x${v.cols})`,
        );
      }
      const Q = linear(fn, q, this.params.Wq);
      const K = linear(fn, k, this.params.Wk);
      const V = linear(fn, v, this.params.Wv);
      return { ...sdpa(fn, Q, K, V), queries: Q, keys: K, values: V };
    }
  }

  class AdditiveAttention extends ProjectedAttention {
    constructor(options) {
      super(
        'AdditiveAttention',
        'createAdditiveAttention',
        options,
        'hiddenFeatures',
        ({ inFeatures, hiddenFeatures }) => ({
          Wq: [inFeatures, hiddenFeatures],
          Wk: [inFeatures, hiddenFeatures],
          Ws: [hiddenFeatures, 1],
        }),
      );
    }

    /**
     * scores(i, j) = w_s · tanh(W_q q_i + b_q + W_k k_j + b_k) + b_s for every pair;
     * weights = softmax of each row; output = weights values (values default to keys).
     */
    forward(queries, keys, values) {
      const fn = 'AdditiveAttention.forward';
      const { q, k, v } = inputs(fn, queries, keys, values, this.inFeatures);
      const Q = linear(fn, q, this.params.Wq);
      const K = linear(fn, k, this.params.Wk);
      const ws = this.params.Ws;
      return withHeap(core, fn, (heap) => {
        const out = {
          scores: heap.output(Q.rows, K.rows, 'scores'),
          weights: heap.output(Q.rows, K.rows, 'weights'),
          output: heap.output(Q.rows, v.cols, 'output'),
        };
        throwForStatus(
          core,
          core._pairwiseAdditiveAttention({
            queries: heap.matrix(Q, 'queries'),
            keys: heap.matrix(K, 'keys'),
            ws: heap.vector(ws.weight.data, 'ws'),
            bs: ws.bias[0],
            values: heap.matrix(v, 'values'),
            ...out,
          }),
          fn,
        );
        return {
          scores: heap.readMatrix(out.scores),
          weights: heap.readMatrix(out.weights),
          output: heap.readMatrix(out.output),
          queries: Q,
          keys: K,
        };
      });
    }
  }

  return {
    /** Trainable dot-product attention with nn.Linear-initialised W_q, W_k, W_v. */
    createTrainableAttention(options) {
      return new TrainableAttention(options);
    },

    /** Additive attention over every query-key pair, with nn.Linear-initialised W_q, W_k, w_s. */
    createAdditiveAttention(options) {
      return new AdditiveAttention(options);
    },
  };
}
