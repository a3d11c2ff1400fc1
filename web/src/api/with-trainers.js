// The API of index.js with the trainers imported statically, for the package's
// own workers (dist/elements/lesson-worker.js, which trains): a bundler that
// makes one script of a worker (Vite's worker.format 'iife') refuses the
// import() index.js loads them with. Not an entry of the package.
import { createLoader } from './api.js';
import * as trainers from './trainers.js';

export { Matrix } from './matrix.js';

/** As index.js's `reader` (a variable bundlers leave alone). */
let reader = './model/open.js';

export const loadAttention = createLoader({
  importTrainers: () => Promise.resolve(trainers),
  importReader: () => import(reader),
});
