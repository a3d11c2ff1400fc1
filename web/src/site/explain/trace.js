// A chapter's computation as a trace of named tensors. Recording stores
// references only (the matrices the API already computed, or a function that
// computes a tensor no figure shows); nothing is explained, copied or computed
// until a reader hovers or focuses a cell, and then only that cell's story.
import { namesOf } from './names.js';
import { OPS } from './ops.js';

/** Most cells walked back through tensors without a figure, looking for the figures a cell came from. */
const MAX_WALK = 50000;
/** Most stories of hidden tensors told after a cell's own (e.g. a weight, then its score). */
const MAX_DEPTH = 3;

/**
 * @typedef {object} TraceEntry
 * @property {string} name unique in the trace, e.g. 'Q' or 'head2.weights'
 * @property {string} [op] a key of OPS; absent for inputs (data, weights, tokens' embeddings)
 * @property {string[]} [inputs] tensor names, in the op's role order
 * @property {{rows: number, cols: number, data: ArrayLike<number>} | (() => object)} value
 *   the matrix, or a function computing it (called at most once per recording, when explained)
 * @property {string} [symbol] how the story names it, e.g. 'Q', 'α'
 * @property {string} [row] the letter of its row vectors, e.g. 'q' for q1, q2, …
 * @property {string} [col] the letter of its column vectors
 * @property {string[]} [rowLabels] tokens of its rows, written after row names
 * @property {string[]} [colLabels] tokens of its columns
 * @property {object} [params] the op's parameters (e.g. { dk } for scale, { ids } for embedding)
 */

export class Trace {
  #entries = new Map();
  #values = new Map(); // values of function entries computed since the last recording

  /** Records a tensor (replacing one of the same name); returns its value untouched. */
  add(entry) {
    this.#entries.set(entry.name, entry);
    this.#values.clear(); // any lazily computed tensor may have read the old one
    return entry.value;
  }

  has(name) {
    return this.#entries.has(name);
  }

  /** The recorded entry of `name` (RangeError for none). */
  entry(name) {
    const entry = this.#entries.get(name);
    if (!entry) throw new RangeError(`trace: no tensor named '${name}'`);
    return entry;
  }

  /** The matrix of `name`, computing a lazy one once. */
  value(name) {
    const { value } = this.entry(name);
    if (typeof value !== 'function') return value;
    if (!this.#values.has(name)) this.#values.set(name, value());
    return this.#values.get(name);
  }

  /** The op of `name` with its arguments as its explainers take them, and its roles' tensor names. */
  #call(name) {
    const entry = this.entry(name);
    const op = OPS[entry.op];
    if (!op) throw new RangeError(`trace: '${name}' is an input (op ${entry.op ?? 'none'}): nothing to explain`);
    const inputNames = entry.inputs ?? [];
    const roles = op.rolesFor ? op.rolesFor(inputNames.length) : op.roles;
    const args = { out: this.value(name), inputs: {}, params: entry.params ?? {}, names: { out: namesOf(entry) } };
    const tensorOf = { out: name };
    roles.forEach((role, i) => {
      const input = inputNames[i];
      if (input === undefined || input === null) return;
      args.inputs[role] = this.value(input);
      args.names[role] = namesOf(this.entry(input));
      tensorOf[role] = input;
    });
    return { op, args, tensorOf };
  }

  /** The cells of other tensors that cell (r, c) of `name` was computed from: [{ tensor, cells }]. */
  sources(name, r, c) {
    const { op, args, tensorOf } = this.#call(name);
    return op.sources(args, r, c).map(({ input, cells }) => ({ tensor: tensorOf[input], cells }));
  }

  /**
   * Cell (r, c) of `name` explained: { text, sources: [{ tensor, cells }], focus }
   * (focus: { tensor, cell }, the input cell this one is made from, if one is).
   */
  explain(name, r, c) {
    const { op, args, tensorOf } = this.#call(name);
    const story = op.explain(args, r, c);
    const focus = op.focus?.(args, r, c);
    return {
      text: story.text,
      sources: story.sources.map(({ input, cells }) => ({ tensor: tensorOf[input], cells })),
      focus: focus ? { tensor: tensorOf[focus.input], cell: focus.cell } : null,
    };
  }

  /** Whether `name` has an op to explain it (inputs do not). */
  explains(name) {
    return this.has(name) && Boolean(OPS[this.entry(name).op]);
  }
}

/**
 * The cells of figures that `sources` come from: a source tensor with a figure
 * is outlined there; one without is followed back through the trace to the
 * figures it was computed from (a head's scores to Q's and K's columns).
 */
function figureCells(trace, figures, sources) {
  const found = new Map(); // figure name -> Map("r,c" -> [r, c])
  const seen = new Set();
  const queue = sources.flatMap(({ tensor, cells }) => cells.map((cell) => [tensor, cell]));
  while (queue.length > 0 && seen.size < MAX_WALK) {
    const [tensor, cell] = queue.pop();
    const key = `${tensor}|${cell[0]},${cell[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (figures[tensor]) {
      if (!found.has(tensor)) found.set(tensor, new Map());
      found.get(tensor).set(key, cell);
    } else if (trace.explains(tensor)) {
      for (const s of trace.sources(tensor, cell[0], cell[1])) for (const c of s.cells) queue.push([s.tensor, c]);
    }
  }
  const rowMajor = (p, q) => p[0] - q[0] || p[1] - q[1];
  return [...found].map(([name, cells]) => ({ figure: figures[name], cells: [...cells.values()].sort(rowMajor) }));
}

/**
 * The Heatmap `explain` option of tensor `name`, from the trace:
 * storyForFigures(trace, figures)('Q') is (r, c) => { text, sources: [{ figure, cells }] }
 * (null before the tensor is recorded). `figures` maps tensor names to the
 * figures that draw them. A cell made from one cell of a tensor no figure
 * draws tells that cell's story too ("…; S[1][2] = q1 · k2 = …").
 */
export function storyForFigures(trace, figures) {
  return (name) => (r, c) => {
    if (!trace.explains(name)) return null;
    const story = trace.explain(name, r, c);
    const parts = [story.text];
    let focus = story.focus;
    for (let depth = 0; focus && !figures[focus.tensor] && trace.explains(focus.tensor) && depth < MAX_DEPTH; depth++) {
      const next = trace.explain(focus.tensor, focus.cell[0], focus.cell[1]);
      parts.push(next.text);
      focus = next.focus;
    }
    return { text: parts.join('; '), sources: figureCells(trace, figures, story.sources) };
  };
}

/**
 * A chapter's computation and its figures: a fresh trace, the `figures` its steps
 * register their heatmaps in (by tensor name), and `story(name)` for a heatmap's `explain`.
 */
export function tracedFigures() {
  const trace = new Trace();
  const figures = {};
  return { trace, figures, story: storyForFigures(trace, figures) };
}
