// Rotary position embeddings (Su et al. 2021, RoFormer): each pair of a row's
// coordinates turns by position · θ_i. `rotary` explains a rotated cell from
// its pair, `frequencies` a pair's θ_i from rope_theta and the config's scaling
// (Hugging Face's rope_scaling names: linear, or llama3's three bands).
import { factor, shown } from './format.js';
import { at } from './names.js';

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
  /** "position 3, pair 2 (coordinates 2 and 6) turns by 3·0.1 = 0.3; q′[1][2] = … = x·cos 0.3 − y·sin 0.3 = …". */
  explain(args, r, c) {
    const { out, inputs, params, names } = args;
    const { x } = inputs;
    const { i, partner, sign } = pairOf(c, x.cols, params.pairing);
    const m = params.positions[r];
    const theta = (params.invFreq ?? inverseFrequencies(x.cols, params.base ?? 10000, params.scaling))[i];
    const angle = m * theta;
    const [first, second] = [c, partner].sort((p, q) => p - q);
    const turn = `(${m}·θ${i + 1})`;
    const numbers = `${factor(at(x, r, c))}·cos ${shown(angle)} ${sign < 0 ? '−' : '+'} ${factor(at(x, r, partner))}·sin ${shown(angle)}`;
    return {
      text:
        `position ${m}, pair ${i + 1} (coordinates ${first + 1} and ${second + 1}) turns by ${m}·θ${i + 1} = ${m}·${shown(theta)} = ${shown(angle)} rad; ` +
        `${names.out.cell(r, c)} = ${names.x.index(r, c)}·cos${turn} ${sign < 0 ? '−' : '+'} ${names.x.index(r, partner)}·sin${turn} = ${numbers} = ${shown(at(out, r, c))}`,
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
