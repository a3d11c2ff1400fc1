// The API of index.js with the trainers imported statically, for the package's
// own workers (dist/elements/lesson-worker.js, which trains): a bundler that
// makes one script of a worker (Vite's worker.format 'iife') refuses the
// import() index.js loads them with. Not an entry of the package.
import { createLoader } from './api.js';
import * as trainers from './trainers.js';

export { Matrix } from './matrix.js';

// No model reader: the workers open no model, and an import() of it here would
// be the chunk such a bundler refuses.
export const loadAttention = createLoader({
  importTrainers: () => Promise.resolve(trainers),
  importReader: () => Promise.reject(new Error("openModel: not in the lessons' worker build; import 'attention-lab'")),
});
