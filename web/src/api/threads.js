// options.threads of openModel and loadAttention, checked. Outside model/ so that
// loadAttention checks it without loading any model file (the first load stays lean).
import { describe } from './errors.js';

/** Most threads `threads` may ask for (cpp/ops/parallel.h kMaxThreads). */
export const MAX_THREADS = 16;

/** options.threads checked: undefined, 'auto' or an integer in [1, MAX_THREADS]. */
export function readThreads(threads, fn) {
  if (threads === undefined || threads === 'auto') return threads;
  if (typeof threads !== 'number' && typeof threads !== 'string')
    throw new TypeError(`${fn}: options.threads must be a whole number of threads or 'auto', got ${describe(threads)}`);
  if (typeof threads === 'string')
    throw new RangeError(`${fn}: options.threads must be a whole number of threads or 'auto', got '${threads}'`);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new RangeError(`${fn}: options.threads must be an integer in [1, ${MAX_THREADS}] or 'auto', got ${threads}`);
  return threads;
}
