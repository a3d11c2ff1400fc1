// Inputs for the tests of web/src/site/explain/: random matrices from the
// NumPy-exact RandomState, role namers, and every cell of a matrix.
import { namesOf } from '../../web/src/site/explain/names.js';

/** rs = RandomState(seed); one rs.randn(r, c) per shape, in order. */
export function draw(api, seed, shapes) {
  const rs = new api.RandomState(seed);
  try {
    return shapes.map(([r, c]) => rs.randn(r, c));
  } finally {
    rs.delete();
  }
}

/** { role: namesOf(options) } for an op's arguments. */
export const names = (symbols) => Object.fromEntries(Object.entries(symbols).map(([role, s]) => [role, namesOf(s)]));

/** Every [row, col] of a matrix, row by row. */
export const cells = (m) => Array.from({ length: m.rows * m.cols }, (_, i) => [Math.floor(i / m.cols), i % m.cols]);
