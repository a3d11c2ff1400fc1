// The pairs of a vector drawn as 2-D arrows: for each pair i, its arrow at
// position 0 (faint) and turned at position m (bold), on one dial each. SVG
// built node by node from the live numbers.
import { el, svg } from '../../../dom.js';
import { shown } from '../../../explain/format.js';
import { pairOf } from '../../../explain/rotary.js';

const R = 42; // a dial's radius in px
const MOST = 8; // dials drawn; past that the text says how many pairs there are

/** The pairs (as [x, y]) of a 1 × d vector in the given pairing: pair i is (x_c, x_partner). */
export function pairsOf(v, pairing) {
  const d = v.length;
  const pairs = [];
  for (let c = 0; c < d; c++) {
    const { i, partner, sign } = pairOf(c, d, pairing);
    if (sign < 0) pairs[i] = { c, partner, xy: [v[c], v[partner]] };
  }
  return pairs;
}

export class Dials {
  constructor(label) {
    this.box = el('div', { className: 'rope-dials', attrs: { role: 'img', 'aria-label': label } });
    this.note = el('p', { className: 'figure-note' });
    this.element = el('figure', { className: 'rope-dials-figure' }, this.box, this.note);
  }

  /** `before`, `after`: the vector at position 0 and at `m`; `angles[i]` = m·θ_i. */
  update(before, after, angles, m, pairing = 'half') {
    const [from, to] = [pairsOf(before, pairing), pairsOf(after, pairing)];
    const shownPairs = Math.min(MOST, from.length);
    const scale = (R - 4) / Math.max(1e-12, ...from.slice(0, shownPairs).map((p) => Math.hypot(...p.xy)));
    const arrow = (cx, cy, [x, y], cls) =>
      svg('line', { class: cls, x1: cx, y1: cy, x2: cx + x * scale, y2: cy - y * scale });
    const [w, h] = [2 * R + 16, 2 * R + 40];
    this.box.replaceChildren(
      ...from.slice(0, shownPairs).map((p, i) => {
        const [cx, cy] = [w / 2, R + 4];
        const g = svg('svg', { class: 'rope-dial', 'data-pair': i + 1, viewBox: `0 0 ${w} ${h}`, width: w, height: h });
        g.append(
          svg('circle', { class: 'rope-rim', cx, cy, r: R }),
          arrow(cx, cy, p.xy, 'rope-before'),
          arrow(cx, cy, to[i].xy, 'rope-after'),
          svg('text', { x: cx, y: 2 * R + 20, 'text-anchor': 'middle' }, `pair ${i + 1}`),
          svg('text', { x: cx, y: 2 * R + 34, 'text-anchor': 'middle' }, `${shown(angles[i])} rad`),
        );
        return g;
      }),
    );
    const rest = from.length > shownPairs ? ` The first ${shownPairs} of ${from.length} pairs are drawn.` : '';
    this.note.textContent = `Faint: each pair at position 0; bold: the same pair at position ${m}, turned by ${m}·θ_i radians (shown under each dial).${rest}`;
  }
}
