// The site's API: the classic build (dist/classic/attention-lab.js, copied next
// to the site as attention-lab.js) loaded as a script of its own rather than
// bundled into app.js, so that the package ships the wasm core once for both:
// its dist/site leaves the copy out and finds ../classic/attention-lab.js.
import { loadDataScript } from './data-script.js';

/**
 * The API object (loads the classic script the first time), without the trainers:
 * a chapter that trains loads them with a.loadTrainers() (the training engine).
 */
export const loadAttention = () =>
  loadDataScript('attention-lab', ['attention-lab.js', '../classic/attention-lab.js']).then((lib) =>
    lib.loadAttention({ trainers: false }),
  );
