// The BERT family's registry row (open.js reads it; build-web.mjs lists every
// families/<family>/index.js in families/index.js): what openModel needs to open
// a BERT folder. The model runs in the core's `_BertModel`
// (cpp/models/families/bert/binding.cpp).
import { loadWordPieceTokenizerAsync } from '../../../tokenizer/wordpiece.js';
import { ACTIVATIONS } from '../../config.js';
import { readJson, readText } from '../../source.js';
import { readBertConfig } from './config.js';
import { headTensors } from './head_weights.js';
import { Bert } from './model.js';

export default Object.freeze({
  family: 'bert',
  /** config.json's model_type values this family answers. */
  modelTypes: ['bert'],
  untyped: false,
  /** Tensor name prefixes a checkpoint may carry (BertModel's, BertForMaskedLM's). */
  prefixes: ['bert.'],
  readConfig: readBertConfig,
  /** The files openTokenizer reads (openModel accepts them). */
  tokenizerFiles: ['tokenizer.json', 'vocab.txt'],
  /** WordPiece: tokenizer.json or vocab.txt (read in slices: `signal` lands). */
  async openTokenizer(files, fn, signal) {
    if (files['tokenizer.json'] !== undefined)
      return loadWordPieceTokenizerAsync(
        { 'tokenizer.json': await readJson(files['tokenizer.json'], fn, 'tokenizer.json', signal) },
        {},
        signal,
      );
    if (files['vocab.txt'] !== undefined)
      return loadWordPieceTokenizerAsync(
        { 'vocab.txt': await readText(files['vocab.txt'], fn, 'vocab.txt', signal) },
        {},
        signal,
      );
    throw new TypeError(`${fn}: a BERT model needs 'tokenizer.json' or 'vocab.txt'`);
  },
  /** The core's class (a value_object with config.json's names configures it). */
  coreClass: '_BertModel',
  /** configure()'s object: the config, plus the masked-LM head when cls.predictions.* is stored. */
  coreConfig: (config, names) => ({
    ...config,
    gelu_erf: ACTIVATIONS[config.hidden_act] === 'erf',
    masked_lm: names.has('cls.predictions.transform.dense.weight'),
  }),
  /** The tensors explainHead reads again for a layer. */
  headTensors,
  Model: Bert,
});
