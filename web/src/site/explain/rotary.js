// Rotary position embeddings (Su et al. 2021, RoFormer): each pair of a row's
// coordinates turns by position · θ_i. `rotary` explains a rotated cell from
// its pair, `frequencies` a pair's θ_i from rope_theta and the config's scaling
// (Hugging Face's rope_scaling names: linear, or llama3's three bands). The
// one place the site computes θ_i: the RoPE chapter's figures and the model
// chapter's rotated q and k both read it from here.
import { factor, shown } from './format.js';
import { at } from './names.js';

const SCALING_KEYS = ['factor', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'];

/** config.json's rope_scaling as the rotation takes it (null: none, or a type not computed here). */
export function scalingOfConfig(config) {
  const s = config.rope_scaling;
  const type = s?.rope_type ?? s?.type;
  if (type !== 'linear' && type !== 'llama3') return null;
  const keys = type === 'linear' ? ['factor'] : SCALING_KEYS;
  return { rope_type: type, ...Object.fromEntries(keys.map((k) => [k, s[k]])) };
}

/**
 * The rotation a layer's config.json sets: { base, baseName, scaling }. Gemma 3's
 * sliding-window layers turn with rope_local_base_freq and no scaling.
 */
export function rotationOfConfig(config, sliding = false) {
  const local = sliding && typeof config.rope_local_base_freq === 'number';
  return {
    base: local ? config.rope_local_base_freq : (config.rope_theta ?? 10000),
    baseName: local ? 'rope_local_base_freq' : 'rope_theta',
    scaling: local ? null : scalingOfConfig(config),
  };
}

/** θ_i = base^(−2i/d), i = 0 … d/2 − 1, before any scaling. */
export const baseFrequencies = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** ((-2 * i) / d));

/**
 * How the scaling treats a pair of frequency θ: { theta, band } with band
 * 'all' (linear: every θ / factor), 'kept' (llama3: wavelength below
 * original / high_freq_factor), 'slowed' (above original / low_freq_factor:
 * θ / factor) or 'blended' (between: a smooth mix of the two).
 */
export function scaledFrequency(theta, scaling) {
  if (!scaling) return { theta, band: 'none' };
  if (scaling.rope_type === 'linear') return { theta: theta / scaling.factor, band: 'all' };
  const { factor: f, low_freq_factor: low, high_freq_factor: high } = scaling;
  const old = scaling.original_max_position_embeddings;
  const wavelength = (2 * Math.PI) / theta;
  if (wavelength < old / high) return { theta, band: 'kept' };
  if (wavelength > old / low) return { theta: theta / f, band: 'slowed' };
  const smooth = (old / wavelength - low) / (high - low);
  return { theta: (1 - smooth) * (theta / f) + smooth * theta, band: 'blended', smooth };
}

/** The θ_i a rotation uses: base frequencies, scaled when the config says so. */
export const inverseFrequencies = (d, base, scaling) =>
  baseFrequencies(d, base).map((theta) => scaledFrequency(theta, scaling).theta);

/** Column c's partner in its pair, its pair index i, and the sign of the partner's term. */
export function pairOf(c, d, pairing) {
  if (pairing === 'interleaved') {
    const i = Math.floor(c / 2);
    return c % 2 === 0 ? { i, partner: c + 1, sign: -1 } : { i, partner: c - 1, sign: 1 };
  }
  const h = d / 2;
  return c < h ? { i: c, partner: c + h, sign: -1 } : { i: c - h, partner: c - h, sign: 1 };
}

/** Cell (r, c) of x turned (position positions[r], or r), as the explanation writes it out. */
export function rotated(x, invFreq, r, c, { positions, pairing } = {}) {
  const { i, partner, sign } = pairOf(c, x.cols, pairing);
  const angle = (positions?.[r] ?? r) * invFreq[i];
  return at(x, r, c) * Math.cos(angle) + sign * at(x, r, partner) * Math.sin(angle);
}

/** Where θ_i came from: "rope_theta 10000^(−2·1/8), rope_scaling llama3". */
function thetaSource({ base, baseName = 'base', scaling, invFreq }, i, d) {
  if (base === undefined && invFreq) return 'as given';
  const scaled = scaling ? `, rope_scaling ${scaling.rope_type}` : '';
  return `${baseName} ${shown(base ?? 10000)}^(−2·${i}/${d})${scaled}`;
}

export const rotary = {
  roles: ['x'],
  sources({ inputs: { x }, params }, r, c) {
    const { partner } = pairOf(c, x.cols, params.pairing);
    return [
      {
        input: 'x',
        cells: [
          [r, c],
          [r, partner],
        ].sort((p, q) => p[1] - q[1]),
      },
    ];
  },
  focus: (_, r, c) => ({ input: 'x', cell: [r, c] }),
  /**
   * "q′[4][2] = q[4][2]·cos(3·θ2) − q[4][6]·sin(3·θ2) = 0.5·0.9936 − 0.3·0.1126 = 0.463; θ2 is 0.03761 (…);
   * position 3, pair 2 (coordinates 2 and 6) turns by 3·θ2 = …": the arithmetic first and its only
   * " = " steps, so its printed numbers give the printed value.
   */
  explain(args, r, c) {
    const { out, inputs, params, names } = args;
    const { x } = inputs;
    const { i, partner, sign } = pairOf(c, x.cols, params.pairing);
    const m = params.positions?.[r] ?? r;
    const invFreq = params.invFreq ?? inverseFrequencies(x.cols, params.base ?? 10000, params.scaling);
    const theta = invFreq[i];
    const angle = m * theta;
    const [first, second] = [c, partner].sort((p, q) => p - q);
    const op = sign < 0 ? '−' : '+';
    const turn = `(${m}·θ${i + 1})`;
    const value = at(out, r, c);
    const ours = rotated(x, invFreq, r, c, params);
    // A model's own number is the one shown; a rotation this story does not write out says so.
    const agrees = Math.abs(ours - value) <= 1e-3 * Math.max(1, Math.abs(value));
    const numbers = `${factor(at(x, r, c))}·${factor(Math.cos(angle))} ${op} ${factor(at(x, r, partner))}·${factor(Math.sin(angle))}`;
    return {
      text:
        `${names.out.cell(r, c)} = ${names.x.index(r, c)}·cos${turn} ${op} ${names.x.index(r, partner)}·sin${turn} = ${numbers} = ${shown(agrees ? value : ours)}; ` +
        `θ${i + 1} is ${shown(theta)} (${thetaSource(params, i, x.cols)}); ` +
        `position ${m}, pair ${i + 1} (coordinates ${first + 1} and ${second + 1}) turns by ${m}·θ${i + 1} = ${m}·${shown(theta)} = ${shown(angle)} rad` +
        (agrees
          ? ''
          : `; but the model's value is ${shown(value)}: its config scales the rotation in a way this story does not write out`),
      sources: rotary.sources(args, r, c),
    };
  },
};

const BANDS = {
  none: () => 'no scaling',
  all: (s) => `linear scaling divides every θ by ${shown(s.factor)}`,
  kept: (s) =>
    `its wavelength is below ${shown(s.original_max_position_embeddings)} / ${shown(s.high_freq_factor)}: kept`,
  slowed: (s) =>
    `its wavelength is above ${shown(s.original_max_position_embeddings)} / ${shown(s.low_freq_factor)}: divided by ${shown(s.factor)}`,
  blended: (s) => `its wavelength lies between the two bands: a blend of θ and θ / ${shown(s.factor)}`,
};

export const frequencies = {
  roles: [],
  sources: () => [],
  /** "θ3 = 10000^(−2·2/8) = 0.01 (wavelength 2π/θ = 628.3)", and for row 2 how the scaling changed it. */
  explain(args, r, c) {
    const { out, params } = args;
    const { d, base, scaling } = params;
    const theta = baseFrequencies(d, base)[c];
    const head = `θ${c + 1} = ${shown(base)}^(−2·${c}/${d}) = ${shown(theta)}`;
    if (r === 0) {
      return { text: `${head} (wavelength 2π/θ = ${shown((2 * Math.PI) / theta)} positions)`, sources: [] };
    }
    const { band } = scaledFrequency(theta, scaling);
    const wave = (2 * Math.PI) / theta;
    return {
      text: `scaled θ${c + 1}: ${head}, wavelength ${shown(wave)}; ${BANDS[band](scaling)} → ${shown(at(out, r, c))} (wavelength ${shown((2 * Math.PI) / at(out, r, c))})`,
      sources: [],
    };
  },
};
