// The GPT-2 family's registry row (open.js reads it; build-web.mjs lists every
// families/<family>/index.js in families/index.js): what openModel needs to open
// a GPT-2 folder. The model runs in the core's `_Gpt2Model`
// (cpp/models/families/gpt2/binding.cpp).
import { loadTokenizerAsync } from '../../../tokenizer/index.js';
import { ACTIVATIONS } from '../../config.js';
import { readJson, readText } from '../../source.js';
import { readGpt2Config } from './config.js';
import { headTensors } from './head_weights.js';
import { Gpt2 } from './model.js';

export default Object.freeze({
  family: 'gpt2',
  /** config.json's model_type values this family answers. */
  modelTypes: ['gpt2'],
  /** It also answers a config.json without model_type (older GPT-2 folders have none). */
  untyped: true,
  /** Tensor name prefixes a checkpoint may carry (GPT2LMHeadModel's). */
  prefixes: ['transformer.'],
  readConfig: readGpt2Config,
  /** The files openTokenizer reads (openModel accepts them). */
  tokenizerFiles: ['tokenizer.json', 'vocab.json', 'merges.txt'],
  /** BPE: tokenizer.json, or vocab.json + merges.txt (its tables built in slices: `signal` lands). */
  async openTokenizer(files, fn, signal) {
    if (files['tokenizer.json'] !== undefined)
      return loadTokenizerAsync(
        { 'tokenizer.json': await readJson(files['tokenizer.json'], fn, 'tokenizer.json', signal) },
        signal,
      );
    if (files['vocab.json'] !== undefined && files['merges.txt'] !== undefined)
      return loadTokenizerAsync(
        {
          'vocab.json': await readJson(files['vocab.json'], fn, 'vocab.json', signal),
          'merges.txt': await readText(files['merges.txt'], fn, 'merges.txt', signal),
        },
        signal,
      );
    throw new TypeError(`${fn}: files needs 'tokenizer.json' (or 'vocab.json' and 'merges.txt')`);
  },
  /** The core's class (a value_object with config.json's names configures it). */
  coreClass: '_Gpt2Model',
  /** configure()'s object: the config, plus what the files decide (lm_head.weight stored: not tied to wte). */
  coreConfig: (config, names) => ({
    ...config,
    gelu_erf: ACTIVATIONS[config.activation_function] === 'erf',
    lm_head: names.has('lm_head.weight'),
  }),
  /** The tensors explainHead reads again for a layer. */
  headTensors,
  Model: Gpt2,
});
