// GPT-2's byte-level BPE tokenizer, from a Hugging Face folder's files.
// Pure JS: encode/decode run without the wasm module.

import { readTokenizerFiles, readTokenizerSteps } from './load.js';
import { runStepsAsync } from './steps.js';
import { buildTokenizer, Tokenizer } from './tokenizer.js';

/**
 * A tokenizer from `{ 'tokenizer.json': text|object }` or
 * `{ 'vocab.json': text|object, 'merges.txt': text }` (text may also be bytes).
 * Other entries are ignored, so a whole model folder's files can be passed.
 * @returns {Tokenizer}
 */
export function loadTokenizer(files) {
  return new Tokenizer(readTokenizerFiles(files));
}

/**
 * loadTokenizer for openModel: the same tokenizer, its tables built in slices that give
 * the event loop a turn (a 1,000,000-token file does not block), rejecting with
 * `signal`'s reason once it is aborted.
 * @param {AbortSignal} [signal]
 */
export async function loadTokenizerAsync(files, signal) {
  return buildTokenizer(await runStepsAsync(readTokenizerSteps(files), signal), signal);
}

export { Tokenizer };
