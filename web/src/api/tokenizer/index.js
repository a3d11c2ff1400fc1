// GPT-2's byte-level BPE tokenizer, from a Hugging Face folder's files.
// Pure JS: encode/decode run without the wasm module.

import { readTokenizerFiles } from './load.js';
import { Tokenizer } from './tokenizer.js';

/**
 * A tokenizer from `{ 'tokenizer.json': text|object }` or
 * `{ 'vocab.json': text|object, 'merges.txt': text }` (text may also be bytes).
 * Other entries are ignored, so a whole model folder's files can be passed.
 * @returns {Tokenizer}
 */
export function loadTokenizer(files) {
  return new Tokenizer(readTokenizerFiles(files));
}

export { Tokenizer };
