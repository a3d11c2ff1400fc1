// Colour maps for heatmaps: t in [0, 1] -> [r, g, b] (0..255). No DOM here.

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const mix = (a, b, t) => a.map((x, i) => x + (b[i] - x) * t);

/**
 * Like seaborn's light_palette(color): from a very light grey tinted with the
 * colour's hue to the colour itself. (seaborn blends in HUSL space; a linear
 * RGB blend between the same end points looks the same at these lightnesses.)
 */
export function lightPalette(lightHex, colorHex) {
  const light = hex(lightHex);
  const color = hex(colorHex);
  return (t) => mix(light, color, t);
}

/** Piecewise-linear colour map from matplotlib-style segment data. */
function segmented(channels) {
  return (t) =>
    channels.map((stops) => {
      for (let i = 1; i < stops.length; i++) {
        if (t <= stops[i][0]) {
          const [x0, y0] = stops[i - 1];
          const [x1, y1] = stops[i];
          return 255 * (y0 + ((y1 - y0) * (t - x0)) / (x1 - x0));
        }
      }
      return 255 * stops[stops.length - 1][1];
    });
}

/** Evenly spaced colour stops blended linearly. */
function stops(hexes) {
  const colors = hexes.map(hex);
  return (t) => {
    const x = t * (colors.length - 1);
    const i = Math.min(colors.length - 2, Math.floor(x));
    return mix(colors[i], colors[i + 1], x - i);
  };
}

export const PALETTES = {
  // The notebook's seaborn palettes: light_palette("purple" | "orange" | "Blue").
  purple: lightPalette('#eee9ee', '#800080'),
  orange: lightPalette('#f3eee8', '#ffa500'),
  blue: lightPalette('#e9ebf4', '#0000ff'),
  green: lightPalette('#e9f1ea', '#2e8b57'),
  // matplotlib's 'bone' (used by the GloVe notebook's attention plots).
  bone: segmented([
    [
      [0, 0],
      [0.746032, 0.652778],
      [1, 1],
    ],
    [
      [0, 0],
      [0.365079, 0.319444],
      [0.746032, 0.777778],
      [1, 1],
    ],
    [
      [0, 0],
      [0.365079, 0.444444],
      [1, 1],
    ],
  ]),
  // Signed matrices: blue below zero, white at zero, red above (matplotlib's coolwarm end points).
  diverging: stops(['#3b4cc0', '#8db0fe', '#f2f2f2', '#f49a7b', '#b40426']),
  // Colour-blind-safe, perceptually uniform (matplotlib's viridis, 9 stops).
  viridis: stops(['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725']),
};

// Dark-scheme variants (issue 35): on a dark page the smallest values blend into the
// background and the largest are bright, so a weight near 0 never looks like the
// brightest cell. Ramps that already run dark to bright (viridis, bone) are shared.
const DARK_PALETTES = {
  purple: lightPalette('#221c26', '#e68ae6'),
  orange: lightPalette('#241f1a', '#ffb52e'),
  blue: lightPalette('#1b1d2a', '#7d9bff'),
  green: lightPalette('#1a221d', '#5fd08f'),
  diverging: stops(['#8db0fe', '#4a64c8', '#2a2a2e', '#c8503a', '#f49a7b']),
};

/**
 * The colour map of palette `name` for a colour scheme ('light' or 'dark'): PALETTES[name]
 * on a light page, its dark variant (when it has one) on a dark page.
 * @param {string} name @param {'light' | 'dark'} [scheme]
 */
export const paletteFor = (name, scheme = 'light') =>
  (scheme === 'dark' && DARK_PALETTES[name]) || PALETTES[name] || PALETTES.orange;

/** Relative luminance (0..1) of an [r, g, b] colour, to choose black or white text. */
export function luminance([r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export const rgb = (c) => `rgb(${c.map((x) => Math.round(x)).join(',')})`;
