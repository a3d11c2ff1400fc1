// Chapter "Attention is all you need, hands on": scaled dot-product attention,
// the 1/sqrt(d_k) scaling, padding and causal masks, multi-head attention and
// the three places a Transformer uses it. Every matrix product, softmax and
// attention call goes through the wasm API; this file generates seeded inputs,
// lays out and draws.
import { code, el } from '../dom.js';
import { credit, errorLine, guarded, outputBlock, step } from '../chapter-kit.js';
import { Heatmap } from '../heatmap.js';
import { tex } from '../math.js';
import { formatCell, formatNumpy } from '../numpy-format.js';
import { PALETTES } from '../palettes.js';
import { readHash, setHashValues } from '../url-state.js';

const DEFAULTS = {
  tokens: 'the cat sat on the mat',
  length: 0, // 0 = one position per token above; otherwise w1 … wN
  dModel: 8,
  heads: 2,
  seed: 1,
  padding: 1,
  causal: false,
  dk: 64,
  source: 'le chat est noir <pad>',
  target: '<s> the cat is black',
};
const LENGTHS = [0, 16, 32, 64, 128];
const D_MODELS = [2, 4, 8, 16, 32, 64];
const DK_DEMO = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const SAMPLES = 32; // random q and k vectors per d_k in the scaling demo (32 x 32 pairs each)
const BIG = 24 * 24; // above this many cells, draw one pixel block per cell, no numbers

// ---- seeded inputs (data generation only; all arithmetic on them is the API's) ----

function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** rows x cols standard normal entries times `scale` (Box–Muller), deterministic in seed. */
function normalMatrix(rows, cols, seed, scale = 1) {
  const next = mulberry32(seed);
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i += 2) {
    const u = 1 - next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u)) * scale;
    data[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < data.length) data[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return { rows, cols, data };
}

/** A word's embedding depends only on the word and the seed, so repeated words match. */
function embed(tokens, dModel, seed) {
  const data = new Float64Array(tokens.length * dModel);
  tokens.forEach((t, i) => {
    let h = 2166136261 ^ seed;
    for (const ch of t) h = Math.imul(h ^ ch.codePointAt(0), 16777619);
    data.set(normalMatrix(1, dModel, h >>> 0).data, i * dModel);
  });
  return { rows: tokens.length, cols: dModel, data };
}

const columns = (m, c0, width) => {
  const data = new Float64Array(m.rows * width);
  for (let r = 0; r < m.rows; r++) data.set(m.data.subarray(r * m.cols + c0, r * m.cols + c0 + width), r * width);
  return { rows: m.rows, cols: width, data };
};
const concatColumns = (parts) => {
  const rows = parts[0].rows;
  const cols = parts.reduce((s, p) => s + p.cols, 0);
  const data = new Float64Array(rows * cols);
  let c0 = 0;
  for (const p of parts) {
    for (let r = 0; r < rows; r++) data.set(p.data.subarray(r * p.cols, (r + 1) * p.cols), r * cols + c0);
    c0 += p.cols;
  }
  return { rows, cols, data };
};
const words = (text) => text.trim().split(/\s+/).filter(Boolean).slice(0, 128);
const sameShape = (a, b) => a.rows === b.rows && a.cols === b.cols;

// ---- figures ------------------------------------------------------------------------

/**
 * A matrix figure: the site's annotated Heatmap for small matrices, one colour
 * block per cell (no text, no table) for large ones, so a 128 x 128 repaint
 * stays far below a frame.
 */
class MatrixFigure {
  constructor(options) {
    this.options = options;
    this.heatmap = new Heatmap(options);
    this.canvas = el('canvas', { className: 'pixel-map', attrs: { role: 'img', 'aria-label': options.label } });
    this.caption = el('figcaption', {}, options.label);
    this.pixels = el('figure', { className: 'pixel-figure', hidden: true }, this.canvas, this.caption);
    this.element = el('div', { className: 'matrix-figure' }, this.heatmap.element, this.pixels);
  }

  update(matrix, options = {}) {
    const big = matrix.rows * matrix.cols > BIG;
    this.heatmap.element.hidden = big;
    this.pixels.hidden = !big;
    if (!big) {
      this.heatmap.update(matrix, options);
      return;
    }
    const o = { ...this.options, ...options };
    const { rows, cols, data } = matrix;
    // One canvas pixel per cell, enlarged by CSS without smoothing: the
    // repaint touches rows * cols pixels, not rows * cols * block².
    const block = Math.max(2, Math.min(8, Math.floor(384 / Math.max(rows, cols))));
    if (this.canvas.width !== cols || this.canvas.height !== rows) {
      this.canvas.width = cols;
      this.canvas.height = rows;
    }
    this.canvas.style.width = `${cols * block}px`;
    this.canvas.style.height = `${rows * block}px`;
    this.canvas.style.imageRendering = 'pixelated';
    const ctx = this.canvas.getContext('2d');
    const image = ctx.createImageData(cols, rows);
    let lo = o.vmin ?? Infinity;
    let hi = o.vmax ?? -Infinity;
    if (o.vmin === undefined || o.vmax === undefined) {
      for (const x of data) {
        if (o.vmin === undefined && x < lo) lo = x;
        if (o.vmax === undefined && x > hi) hi = x;
      }
    }
    const lut = lookupTable(o.palette);
    const px = image.data;
    const scale = hi > lo ? 255 / (hi - lo) : 0;
    // `maskData` (rows x cols, 0 = masked) is the fast form of isMasked.
    const masked = o.maskData;
    for (let i = 0, k = 0; i < rows * cols; i++, k += 4) {
      if (masked && masked[i] === 0) {
        // Masked cells: a neutral grey (hatching needs more than one pixel).
        px[k] = px[k + 1] = px[k + 2] = 120;
      } else {
        const t = scale ? Math.max(0, Math.min(255, ((data[i] - lo) * scale + 0.5) | 0)) * 3 : 384;
        px[k] = lut[t];
        px[k + 1] = lut[t + 1];
        px[k + 2] = lut[t + 2];
      }
      px[k + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
    this.canvas.dataset.painted = 'true';
    this.layout = { left: 0, top: 0, cellW: block, cellH: block, rows, cols };
    this.caption.textContent = `${o.label} (${rows} × ${cols}; colour scale ${formatCell(lo)} to ${formatCell(hi)}${masked ? '; grey = masked' : ''})`;
  }

  /** The cell under a click, in either drawing. */
  cellAt(event) {
    const l = event.target === this.canvas ? this.layout : this.heatmap.layout;
    if (!l) return null;
    const c = Math.floor((event.offsetX - l.left) / l.cellW);
    const r = Math.floor((event.offsetY - l.top) / l.cellH);
    return r >= 0 && r < l.rows && c >= 0 && c < l.cols ? [r, c] : null;
  }

  onCellClick(handler) {
    for (const canvas of [this.canvas, this.heatmap.canvas]) {
      canvas.addEventListener('click', (event) => {
        const cell = this.cellAt(event);
        if (cell) handler(...cell);
      });
      canvas.style.cursor = 'pointer';
    }
    // Keyboard: focus the heatmap, move with the arrow keys, press Enter or Space.
    this.heatmap.canvas.addEventListener('cellactivate', (event) => handler(event.detail.row, event.detail.col));
  }
}

const lookupTables = new Map();
/** 256 colours of a palette as r, g, b bytes. */
function lookupTable(name) {
  const key = PALETTES[name] ? name : 'orange';
  if (!lookupTables.has(key)) {
    const lut = new Uint8ClampedArray(256 * 3);
    for (let i = 0; i < 256; i++) lut.set(PALETTES[key](i / 255).map(Math.round), i * 3);
    lookupTables.set(key, lut);
  }
  return lookupTables.get(key);
}

function select(label, values, current, format, onChange) {
  const node = el('select', { attrs: { 'aria-label': label }, on: { change: () => onChange(Number(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, format(v))));
  return el('label', { className: 'control' }, `${label} `, node);
}

function numberField(label, value, { min, max }, onChange) {
  const node = el('input', {
    type: 'number', value: String(value), min: String(min), max: String(max), step: '1', className: 'num',
    attrs: { 'aria-label': label },
    on: {
      input: () => {
        const x = Number(node.value);
        const ok = Number.isInteger(x) && x >= min && x <= max;
        node.setAttribute('aria-invalid', String(!ok));
        if (ok) onChange(x);
      },
    },
  });
  return el('label', { className: 'control' }, `${label} `, node);
}

function textField(label, value, onChange) {
  const node = el('input', {
    type: 'text', value, spellcheck: false, className: 'tokens', size: 36,
    attrs: { 'aria-label': label },
    on: {
      input: () => {
        const ok = words(node.value).length > 0;
        node.setAttribute('aria-invalid', String(!ok));
        if (ok) onChange(node.value);
      },
    },
  });
  return el('label', { className: 'control' }, `${label} `, node);
}

function checkbox(label, checked, onChange) {
  const node = el('input', { type: 'checkbox', checked, attrs: { 'aria-label': label }, on: { change: () => onChange(node.checked) } });
  return el('label', { className: 'control' }, node, ` ${label}`);
}

const small = (m) => m.rows * m.cols <= 12 * 12;

export default {
  id: 'transformer',
  title: 'Attention is all you need, hands on',
  summary: 'Scaled dot-product attention with queries, keys and values, why scores are divided by √d_k, padding and causal masks, and multi-head attention in a Transformer.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api }) {
    const hash = readHash();
    const num = (key, fallback, ok) => {
      const x = Number(hash.get(key));
      return hash.has(key) && ok(x) ? x : fallback;
    };
    const state = {
      tokens: hash.get('tt') && words(hash.get('tt')).length ? hash.get('tt') : DEFAULTS.tokens,
      length: num('tn', DEFAULTS.length, (x) => LENGTHS.includes(x)),
      dModel: num('td', DEFAULTS.dModel, (x) => D_MODELS.includes(x)),
      heads: num('th', DEFAULTS.heads, (x) => Number.isInteger(x) && x >= 1 && x <= 64),
      seed: num('ts', DEFAULTS.seed, (x) => Number.isInteger(x) && x >= 0 && x <= 1e6),
      padding: num('tp', DEFAULTS.padding, (x) => Number.isInteger(x) && x >= 0 && x <= 127),
      causal: hash.get('tc') === '1',
      dk: num('tk', DEFAULTS.dk, (x) => DK_DEMO.includes(x)),
      demoSeed: num('tds', 1, (x) => Number.isInteger(x) && x >= 0 && x <= 1e6),
      usesSeed: num('tus', 1, (x) => Number.isInteger(x) && x >= 0 && x <= 1e6),
      // Cells flipped by hand on the mask, as "row.col".
      flips: new Set((hash.get('tm') ?? '').split(',').filter((s) => /^\d+\.\d+$/.test(s))),
      source: hash.get('tsrc') && words(hash.get('tsrc')).length ? hash.get('tsrc') : DEFAULTS.source,
      target: hash.get('ttgt') && words(hash.get('ttgt')).length ? hash.get('ttgt') : DEFAULTS.target,
    };
    if (state.dModel % state.heads !== 0) state.heads = 1;

    // One hash write per update (each write is a history.replaceState).
    const save = () =>
      setHashValues({
        tt: state.tokens === DEFAULTS.tokens ? null : state.tokens,
        tn: state.length || null,
        td: state.dModel,
        th: state.heads,
        ts: state.seed,
        tp: state.padding,
        tc: state.causal ? '1' : null,
        tk: state.dk,
        tds: state.demoSeed === 1 ? null : state.demoSeed,
        tus: state.usesSeed === 1 ? null : state.usesSeed,
        tm: state.flips.size ? [...state.flips].join(',') : null,
        tsrc: state.source === DEFAULTS.source ? null : state.source,
        ttgt: state.target === DEFAULTS.target ? null : state.target,
      });
    const edit = (change) => (value) => {
      change(value);
      update();
    };

    // ---- controls
    const headsSlot = el('span');
    const renderHeadsControl = () => {
      const options = Array.from({ length: state.dModel }, (_, i) => i + 1).filter((h) => state.dModel % h === 0);
      headsSlot.replaceChildren(select('heads', options, state.heads, String, edit((h) => (state.heads = h))));
    };
    const sizeControls = [
      textField('tokens', state.tokens, edit((t) => {
        state.tokens = t;
        state.flips.clear();
      })),
      select('length', LENGTHS, state.length, (n) => (n === 0 ? 'one per token' : `${n} positions`), edit((n) => {
        state.length = n;
        state.flips.clear();
      })),
      select('d_model', D_MODELS, state.dModel, String, edit((d) => {
        state.dModel = d;
        if (d % state.heads !== 0) state.heads = 1;
        renderHeadsControl();
      })),
      numberField('seed', state.seed, { min: 0, max: 1e6 }, edit((s) => (state.seed = s))),
    ];
    renderHeadsControl();

    // ---- figures
    const tokenLabels = (opts) => ({ ...opts, rotateColLabels: true, colLabelsOnTop: true });
    const xFig = new MatrixFigure({ palette: 'blue', label: 'embeddings X, one row per token' });
    const qFig = new MatrixFigure({ palette: 'purple', label: 'queries Q = X Wq' });
    const kFig = new MatrixFigure({ palette: 'orange', label: 'keys K = X Wk' });
    const vFig = new MatrixFigure({ palette: 'green', label: 'values V = X Wv' });
    const scoresFig = new MatrixFigure(tokenLabels({ palette: 'orange', label: 'raw scores Q Kᵀ (rows: queries, columns: keys)' }));
    const scaledFig = new MatrixFigure(tokenLabels({ palette: 'orange', label: 'scaled scores Q Kᵀ / √d_k' }));
    const scoresOut = outputBlock('raw scores as NumPy prints them');

    const dkVariance = el('table', { className: 'dk-table' });
    const dkWeightsFig = new Heatmap({ palette: 'orange', label: 'softmax over 8 keys, without and with scaling', vmin: 0, vmax: 1, rowLabels: ['Q Kᵀ', 'Q Kᵀ / √d_k'] });
    const dkOut = outputBlock('softmax weights without and with scaling');

    const weightsFig = new MatrixFigure(tokenLabels({ palette: 'orange', label: 'attention weights softmax(Q Kᵀ / √d_k)', vmin: 0, vmax: 1 }));
    const outFig = new MatrixFigure({ palette: 'green', label: 'output = weights · V' });
    const weightsOut = outputBlock('attention weights as NumPy prints them');

    const maskFig = new MatrixFigure(tokenLabels({ palette: 'bone', label: 'mask (1 = may attend, 0 = masked; click a cell, or focus it and press Enter, to flip it)', vmin: 0, vmax: 1 }));
    const maskedFig = new MatrixFigure(tokenLabels({ palette: 'orange', label: 'masked attention weights (hatched = masked)', vmin: 0, vmax: 1 }));
    const maskedOutFig = new MatrixFigure({ palette: 'green', label: 'masked output' });
    const maskedOut = outputBlock('masked attention weights as NumPy prints them');
    const maskNote = el('p', { className: 'worked' });
    maskFig.onCellClick((r, c) => {
      const key = `${r}.${c}`;
      if (state.flips.has(key)) state.flips.delete(key);
      else state.flips.add(key);
      update();
    });
    const padControl = numberField('padding tokens at the end', state.padding, { min: 0, max: 127 }, edit((p) => (state.padding = p)));
    const causalControl = checkbox('causal (no looking ahead)', state.causal, edit((c) => (state.causal = c)));
    const resetFlips = el('button', { type: 'button', className: 'small', on: { click: () => { state.flips.clear(); update(); } } }, 'clear flipped cells');

    const headsRow = el('div', { className: 'figures heads' });
    const concatFig = new MatrixFigure({ palette: 'green', label: 'concatenated head outputs' });
    const mhaFig = new MatrixFigure({ palette: 'blue', label: 'multi-head output = concat · Wo' });
    const mhaCheck = el('p', { className: 'worked' });
    let headFigs = [];

    const usesSource = textField('source sentence (encoder)', state.source, edit((t) => (state.source = t)));
    const usesTarget = textField('target sentence (decoder)', state.target, edit((t) => (state.target = t)));
    const uses = ['encoder self-attention', 'masked decoder self-attention', 'encoder–decoder attention'].map((name) => ({
      name,
      figs: [0, 1].map((h) => new Heatmap({ palette: 'orange', label: `${name}, head ${h + 1}`, vmin: 0, vmax: 1, rotateColLabels: true, colLabelsOnTop: true })),
    }));

    let lastDemo = '';
    const memo = {};
    const error = errorLine();
    const timing = el('p', { className: 'timing', attrs: { 'aria-live': 'off' } });

    // ---- recompute everything
    function update() {
      const t0 = performance.now();
      guarded(error, () => {
        const toks = state.length === 0 ? words(state.tokens) : Array.from({ length: state.length }, (_, i) => `w${i + 1}`);
        const n = toks.length;
        const d = state.dModel;
        const labels = n <= 24 ? { rowLabels: toks, colLabels: toks } : { rowLabels: undefined, colLabels: undefined };
        const rowsOnly = n <= 24 ? { rowLabels: toks } : { rowLabels: undefined };
        // Each part is recomputed only when its inputs changed (an edit of the
        // mask does not redo the projections, a new seed redoes everything).
        const keyA = JSON.stringify([toks, d, state.seed]);
        const freshA = keyA !== memo.keyA;
        if (freshA) {
          memo.keyA = keyA;
          const X0 = state.length === 0 ? embed(toks, d, state.seed) : normalMatrix(n, d, state.seed);
          const W0 = [1, 2, 3, 4].map((k) => normalMatrix(d, d, state.seed * 7919 + k, 1 / Math.sqrt(d)));
          memo.A = { X: X0, Ws: W0, Q: api.matmul(X0, W0[0]), K: api.matmul(X0, W0[1]), V: api.matmul(X0, W0[2]) };
        }
        const { X, Ws, Q, K, V } = memo.A;
        const [Wq, Wk, Wv, Wo] = Ws;
        if (freshA) {
          xFig.update(X, rowsOnly);
          qFig.update(Q, rowsOnly);
          kFig.update(K, rowsOnly);
          vFig.update(V, rowsOnly);
          const raw = api.attentionScores(Q, K);
          const scaled = api.attentionScores(Q, K, { scaled: true });
          scoresFig.update(raw, labels);
          scaledFig.update(scaled, labels);
          scoresOut.textContent = small(raw) ? formatNumpy(raw.data, [n, n]) : `(${n} × ${n} scores; shown as NumPy up to 12 × 12)`;
          const plain = api.scaledDotProductAttention(Q, K, V);
          weightsFig.update(plain.weights, labels);
          outFig.update(plain.output, rowsOnly);
          weightsOut.textContent = small(plain.weights) ? formatNumpy(plain.weights.data, [n, n]) : `(${n} × ${n} weights; shown as NumPy up to 12 × 12)`;
        }

        // The scaling demo: SAMPLES random q and k per d_k, entries N(0, 1).
        // It has its own seed, so edits of the main inputs reuse it.
        const demoKey = `${state.demoSeed}/${state.dk}`;
        if (demoKey !== lastDemo) {
          lastDemo = demoKey;
          dkVariance.replaceChildren(
          el('caption', {}, `Variance of q · k over ${SAMPLES} × ${SAMPLES} random pairs (entries of q, k drawn from N(0, 1))`),
          el('tr', {}, ...['d_k', 'var(q · k)', 'var(q · k / √d_k)', 'largest softmax weight of 8, unscaled', '… scaled'].map((h) => el('th', { scope: 'col' }, h))),
          ...DK_DEMO.map((dk) => {
            const qs = normalMatrix(SAMPLES, dk, state.demoSeed * 31 + dk);
            const ks = normalMatrix(SAMPLES, dk, state.demoSeed * 37 + dk + 1);
            const s = api.attentionScores(qs, ks);
            const ss = api.attentionScores(qs, ks, { scaled: true });
            const variance = (m) => {
              let mean = 0;
              for (const x of m.data) mean += x;
              mean /= m.data.length;
              let v = 0;
              for (const x of m.data) v += (x - mean) ** 2;
              return v / (m.data.length - 1);
            };
            const firstEight = (m) => m.data.slice(0, 8);
            const wRaw = api.softmax(firstEight(s));
            const wScaled = api.softmax(firstEight(ss));
            if (dk === state.dk) {
              const both = new Float64Array(16);
              both.set(wRaw, 0);
              both.set(wScaled, 8);
              dkWeightsFig.update({ rows: 2, cols: 8, data: both }, { colLabels: Array.from({ length: 8 }, (_, j) => `k${j + 1}`) });
              dkOut.textContent = `d_k = ${dk}\nunscaled: ${formatNumpy(wRaw, [8])}\nscaled:   ${formatNumpy(wScaled, [8])}`;
            }
            return el('tr', { className: dk === state.dk ? 'current' : '' },
              el('th', { scope: 'row' }, String(dk)), el('td', {}, variance(s).toFixed(2)), el('td', {}, variance(ss).toFixed(3)),
              el('td', {}, Math.max(...wRaw).toFixed(4)), el('td', {}, Math.max(...wScaled).toFixed(4)));
          }),
          );
        }

        // Masks: padding keys at the end, optionally causal, plus hand-flipped cells.
        const keyB = `${keyA}|${state.padding}|${state.causal}|${[...state.flips].join(',')}`;
        const freshB = keyB !== memo.keyB;
        if (freshB) {
          memo.keyB = keyB;
          const pad = Math.min(state.padding, n);
          const mask = new Float64Array(n * n);
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
              let m = j < n - pad && (!state.causal || j <= i) ? 1 : 0;
              mask[i * n + j] = m;
            }
          }
          for (const key of state.flips) {
            const [i, j] = key.split('.').map(Number);
            if (i < n && j < n) mask[i * n + j] = 1 - mask[i * n + j];
          }
          const maskMatrix = { rows: n, cols: n, data: mask };
          const isMasked = (r, c) => mask[r * n + c] === 0;
          const masked = api.scaledDotProductAttention(Q, K, V, { mask: maskMatrix });
          maskFig.update(maskMatrix, labels);
          maskedFig.update(masked.weights, { ...labels, isMasked, maskData: mask });
          maskedOutFig.update(masked.output, rowsOnly);
          maskedOut.textContent = small(masked.weights) ? formatNumpy(masked.weights.data, [n, n]) : `(${n} × ${n} weights)`;
          let empty = 0;
          for (let i = 0; i < n; i++) if (mask.subarray(i * n, (i + 1) * n).every((m) => m === 0)) empty++;
          maskNote.textContent = empty
            ? `${empty} ${empty === 1 ? 'query has' : 'queries have'} no key left to attend to: ${empty === 1 ? 'its' : 'their'} weights and output are all zeros (not NaN).`
            : 'Every query still has at least one key to attend to; each row of weights sums to 1.';
          memo.B = { mask, maskMatrix, isMasked };
        }
        const { mask, maskMatrix, isMasked } = memo.B;

        // Multi-head: by hand (projections sliced per head) and with one API call.
        const keyC = `${keyB}|${state.heads}`;
        if (keyC !== memo.keyC) {
          memo.keyC = keyC;
          const h = state.heads;
          const dk = d / h;
          const perHead = Array.from({ length: h }, (_, i) =>
            api.scaledDotProductAttention(columns(Q, i * dk, dk), columns(K, i * dk, dk), columns(V, i * dk, dk), { mask: maskMatrix }));
          if (headFigs.length !== h) {
            headFigs = perHead.map((_, i) => new MatrixFigure(tokenLabels({ palette: 'orange', label: `head ${i + 1} weights (d_k = ${dk})`, vmin: 0, vmax: 1 })));
            headsRow.replaceChildren(...headFigs.map((f) => f.element));
          }
          perHead.forEach((r, i) => headFigs[i].update(r.weights, { ...labels, isMasked, maskData: mask, label: `head ${i + 1} weights (d_k = ${dk})` }));
          const concat = concatColumns(perHead.map((r) => r.output));
          concatFig.update(concat, rowsOnly);
          const byHand = api.matmul(concat, Wo);
          mhaFig.update(byHand, rowsOnly);
          const mha = api.multiHeadAttention(X, X, X, { heads: h, Wq, Wk, Wv, Wo, mask: maskMatrix });
          let diff = 0;
          for (let i = 0; i < byHand.data.length; i++) diff = Math.max(diff, Math.abs(byHand.data[i] - mha.output.data[i]));
          mhaCheck.replaceChildren(
            code('multiHeadAttention(X, X, X, { heads: ' + h + ', Wq, Wk, Wv, Wo, mask })'),
            ` gives the same ${n} × ${d} output as the step-by-step computation above: largest difference ${diff.toExponential(1)}.`,
          );
        }

        // The three uses, on a small translation example.
        const keyD = JSON.stringify([state.usesSeed, state.source, state.target]);
        if (keyD !== memo.keyD) {
          memo.keyD = keyD;
          const src = words(state.source).slice(0, 12);
          const tgt = words(state.target).slice(0, 12);
          const dm = 8;
          const S = embed(src, dm, state.usesSeed);
          const T = embed(tgt, dm, state.usesSeed + 1);
          const params = (k) => ({
            heads: 2,
            Wq: normalMatrix(dm, dm, state.usesSeed * 13 + k, 1 / Math.sqrt(dm)),
            Wk: normalMatrix(dm, dm, state.usesSeed * 13 + k + 1, 1 / Math.sqrt(dm)),
            Wv: normalMatrix(dm, dm, state.usesSeed * 13 + k + 2, 1 / Math.sqrt(dm)),
            Wo: normalMatrix(dm, dm, state.usesSeed * 13 + k + 3, 1 / Math.sqrt(dm)),
          });
          const padMask = (rows) => {
            const m = new Float64Array(rows * src.length);
            for (let i = 0; i < rows; i++) src.forEach((w, j) => (m[i * src.length + j] = w === '<pad>' ? 0 : 1));
            return { rows, cols: src.length, data: m };
          };
          const runs = [
            { q: S, kv: S, opts: { mask: padMask(src.length) }, rows: src, cols: src },
            { q: T, kv: T, opts: { causal: true }, rows: tgt, cols: tgt },
            { q: T, kv: S, opts: { mask: padMask(tgt.length) }, rows: tgt, cols: src },
          ];
          runs.forEach((run, u) => {
            const r = api.multiHeadAttention(run.q, run.kv, run.kv, { ...params(u * 10), ...run.opts });
            const m = run.opts.mask;
            const hidden = m ? (i, j) => m.data[i * m.cols + j] === 0 : (i, j) => j > i;
            r.weights.forEach((w, hh) => uses[u].figs[hh].update(w, { rowLabels: run.rows, colLabels: run.cols, isMasked: hidden }));
          });
        }
        save();
      });
      const ms = performance.now() - t0;
      root.dataset.updateMs = ms.toFixed(2);
      timing.textContent = `Last recompute and repaint: ${ms.toFixed(1)} ms.`;
    }

    root.append(
      el('h2', {}, 'Attention is all you need, hands on'),
      credit({
        text: 'Follows section 3.2 of',
        title: 'Vaswani et al., “Attention Is All You Need” (2017)',
        url: 'https://arxiv.org/abs/1706.03762',
        note: 'The explanations here are our own; every number is computed live by the WebAssembly core',
      }),
      credit({
        text: 'The PyTorch sketches of attention and multi-head attention quoted in the',
        title: 'neqkir/attention-mechanism notes',
        url: 'https://github.com/neqkir/attention-mechanism',
        note: 'come from The Annotated Transformer (Harvard NLP, nlp.seas.harvard.edu/annotated-transformer); the masks, the head split and the three uses follow them',
      }),
      el('p', { className: 'lede' },
        'A Transformer has no recurrence: every token looks at every other token directly, through attention. ',
        'Here is that mechanism, one piece at a time, on inputs you can change. The embeddings and weight matrices are random (seeded), as in an untrained model: ',
        'the point is the arithmetic, not what a trained model would attend to.'),
      step({
        title: '1. Queries, keys and values',
        intro: [
          el('p', {}, 'Each token starts as an embedding, a row of ', tex('X'), ' with ', tex('d_{\\text{model}}'),
            ' numbers. Three learned matrices turn it into three roles: a query ', tex('q'), ' (what this token is looking for), a key ', tex('k'),
            ' (what it offers to be found by) and a value ', tex('v'), ' (what it hands over when found).'),
        ],
        formula: 'Q = X W^Q, \\qquad K = X W^K, \\qquad V = X W^V',
        controls: [...sizeControls],
        figures: [xFig.element, qFig.element, kFig.element, vFig.element],
      }),
      step({
        title: '2. Raw scores',
        intro: [el('p', {}, 'Every query is compared with every key by a dot product. One matrix product does all of them: row ', tex('i'),
          ' of ', tex('QK^\\top'), ' holds query ', tex('i'), '’s scores against every key.')],
        formula: '\\operatorname{scores} = Q K^\\top \\in \\mathbb{R}^{n_q \\times n_k}',
        output: scoresOut,
        figures: [scoresFig.element, scaledFig.element],
      }),
      step({
        title: '3. Why divide by √d_k',
        intro: [
          el('p', {}, 'If the entries of ', tex('q'), ' and ', tex('k'), ' are independent with mean 0 and variance 1, then ',
            tex('q \\cdot k = \\sum_{i=1}^{d_k} q_i k_i'), ' is a sum of ', tex('d_k'), ' terms of variance 1: its variance is ', tex('d_k'),
            '. Long vectors give huge scores, softmax of huge scores is almost one-hot, and a one-hot softmax has almost no gradient to learn from. ',
            'Dividing by ', tex('\\sqrt{d_k}'), ' brings the variance back to 1, whatever ', tex('d_k'), '.'),
        ],
        formula: '\\operatorname{Var}(q \\cdot k) = d_k, \\qquad \\operatorname{Var}\\!\\Big(\\frac{q \\cdot k}{\\sqrt{d_k}}\\Big) = 1',
        controls: [
          select('d_k', DK_DEMO, state.dk, String, edit((v) => (state.dk = v))),
          numberField('demo seed', state.demoSeed, { min: 0, max: 1e6 }, edit((v) => (state.demoSeed = v))),
        ],
        output: dkOut,
        figures: [dkVariance, dkWeightsFig.element],
        after: ['The table measures it: the unscaled variance grows like d_k and the largest of 8 softmax weights heads for 1; scaled, both stay put. Change the demo seed to draw new vectors.'],
      }),
      step({
        title: '4. Softmax, then a weighted sum of values',
        intro: ['Each row of scaled scores goes through a softmax, giving weights that are positive and sum to 1. The output for a query is the weighted average of the value rows.'],
        formula: '\\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}}\\Big) V',
        output: weightsOut,
        figures: [weightsFig.element, outFig.element],
      }),
      step({
        title: '5. Masks: padding and no peeking',
        intro: [
          el('p', {}, 'Batches pad short sentences to a common length; nobody should attend to the padding. A decoder generating text must not look at tokens it has not produced yet: ',
            'query ', tex('i'), ' may only see keys ', tex('j \\le i'), ' (causal mask). Masked scores are set to ', tex('-\\infty'),
            ' before the softmax, so their weight is exactly 0. Click any cell of the mask to flip it.'),
        ],
        formula: '\\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}} + M\\Big), \\qquad M_{ij} = \\begin{cases} 0 & \\text{may attend} \\\\ -\\infty & \\text{masked} \\end{cases}',
        controls: [padControl, causalControl, resetFlips],
        output: maskedOut,
        figures: [maskFig.element, maskedFig.element, maskedOutFig.element],
        after: [maskNote],
      }),
      step({
        title: '6. Multi-head attention',
        intro: [
          el('p', {}, 'Instead of one attention over all ', tex('d_{\\text{model}}'), ' columns, split the projected ', tex('Q, K, V'), ' into ', tex('h'),
            ' blocks of ', tex('d_k = d_{\\text{model}}/h'), ' columns. Each head attends on its own block, so different heads can pick out different relations. ',
            'The heads’ outputs are put side by side again and mixed by ', tex('W^O'), '. The mask from step 5 applies to every head.'),
        ],
        formula: '\\operatorname{MultiHead}(Q, K, V) = \\operatorname{Concat}(\\text{head}_1, \\dots, \\text{head}_h) W^O, \\quad \\text{head}_i = \\operatorname{Attention}(Q W_i^Q, K W_i^K, V W_i^V)',
        controls: [headsSlot],
        figures: [headsRow, concatFig.element, mhaFig.element],
        after: [mhaCheck],
      }),
      step({
        title: '7. Three uses in a Transformer',
        intro: [
          el('p', {}, 'The same multi-head attention appears three times. In the encoder, every source token attends to every source token (self-attention; padding masked). ',
            'In the decoder, every target token attends to the target tokens up to itself (masked self-attention). Between them, every target token queries the encoder’s output: ',
            'queries from the decoder, keys and values from the encoder (encoder–decoder attention). Two heads each, random weights; edit the sentences.'),
        ],
        controls: [usesSource, usesTarget, numberField('weights seed', state.usesSeed, { min: 0, max: 1e6 }, edit((v) => (state.usesSeed = v)))],
        figures: uses.map((u) => el('div', { className: 'use' }, el('h4', {}, u.name), el('div', { className: 'figures' }, ...u.figs.map((f) => f.element)))),
      }),
      error,
      timing,
    );
    update();
  },
};
