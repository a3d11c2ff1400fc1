// The BPE tokenizers of Hugging Face's tokenizer.json (GPT-2, Llama 2 and 3, Qwen,
// Mistral, Gemma, SmolLM …) and BERT's WordPiece, from a model folder's files.
// Pure JS: encode/decode run without the wasm module.

import { isPlainObject } from '../errors.js';
import { readJson, readTokenizerFiles, readTokenizerSteps } from './load.js';
import { runStepsAsync } from './steps.js';
import { buildTokenizer, Tokenizer } from './tokenizer.js';
import { loadWordPieceTokenizer, loadWordPieceTokenizerAsync, WordPieceTokenizer } from './wordpiece.js';

/** The files with tokenizer.json parsed once, and whether its model is WordPiece. */
function parsed(files) {
  if (!isPlainObject(files) || files['tokenizer.json'] === undefined) return { files, wordPiece: false };
  const json = readJson(files['tokenizer.json'], 'tokenizer.json');
  if (!isPlainObject(json)) return { files, wordPiece: false }; // the BPE reader says what is wrong
  return {
    files: { ...files, 'tokenizer.json': json },
    wordPiece: isPlainObject(json.model) && json.model.type === 'WordPiece',
  };
}

/**
 * A tokenizer from `{ 'tokenizer.json': text|object }` or
 * `{ 'vocab.json': text|object, 'merges.txt': text }` (text may also be bytes).
 * Other entries are ignored, so a whole model folder's files can be passed.
 * A tokenizer.json whose model is WordPiece gives a WordPieceTokenizer.
 * @returns {Tokenizer | WordPieceTokenizer}
 */
export function loadTokenizer(files) {
  const { files: read, wordPiece } = parsed(files);
  if (wordPiece) return loadWordPieceTokenizer({ 'tokenizer.json': read['tokenizer.json'] });
  return new Tokenizer(readTokenizerFiles(read));
}

/**
 * loadTokenizer for openModel: the same tokenizer, its tables built in slices that give
 * the event loop a turn (a 1,000,000-token file does not block), rejecting with
 * `signal`'s reason once it is aborted.
 * @param {AbortSignal} [signal]
 */
export async function loadTokenizerAsync(files, signal) {
  // Aborted already: not even the JSON is parsed.
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
  const { files: read, wordPiece } = parsed(files);
  if (wordPiece) return loadWordPieceTokenizerAsync({ 'tokenizer.json': read['tokenizer.json'] }, {}, signal);
  return buildTokenizer(await runStepsAsync(readTokenizerSteps(read), signal), signal);
}

export { Tokenizer, WordPieceTokenizer };
