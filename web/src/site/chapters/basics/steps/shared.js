// What the Basics chapter's steps share: formula symbols, coloured like (and linked to) their figures,
// and the shapes its figures take.
import { symbol } from '../../../math.js';

export const h = symbol('decoder', 'h');
export const hs = symbol('annotation', '\\bar h_s');
export const H = symbol('annotations', 'H');
export const e = symbol('scores', 'e');
export const es = symbol('scores', 'e_s');
export const alpha = symbol('weights', '\\alpha_s');

export const column = (v) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
export const row = (v) => ({ rows: 1, cols: v.length, data: Float64Array.from(v) });
