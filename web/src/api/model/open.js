// openModel: a GPT-2 or a BERT from the files of a Hugging Face model folder
// (config.json's model_type: 'gpt2', the default, or 'bert').
//
//   const m = await a.openModel({ 'config.json': …, 'model.safetensors': …, 'tokenizer.json': … });
//
// Order of work: config.json and the tokenizer are read and checked; then the
// safetensors header (checked against the file's size and the config: every
// tensor present with its shape, a float dtype); then the size: a model whose
// float32 weights need more than MAX_MODEL_BYTES is refused before anything is
// allocated. Only then are the weights allocated (in the core, which owns
// them) and streamed in: each chunk of the file is converted straight into its
// tensors' heap buffers, so peak memory is the float32 weights plus one chunk.
//
// The model runs in a wasm module of its own (gpt2_core.mjs, from
// cpp/gpt2_bindings.cpp), instantiated on the first call: like this reader, it
// stays out of every lesson's first load.
import { describe, isPlainObject, readOptions, throwForStatus } from '../errors.js';
import { loadTokenizer } from '../tokenizer/index.js';
import { loadWordPieceTokenizer } from '../tokenizer/wordpiece.js';
import { Bert } from './bert.js';
import { readBertConfig, readGpt2Config, ACTIVATIONS } from './config.js';
import { Gpt2 } from './gpt2.js';
import { FLOAT_DTYPES, parseHeader, readHeaderLength } from './safetensors.js';
import { ByteReader, checkAborted, readJson, readText } from './source.js';
import { TensorWriter } from './tensor_writer.js';
import createGpt2Core from './gpt2_core.mjs';

/** Most bytes the weights may take in float32 (the wasm memory holds 2 GiB; the rest is for running). */
export const MAX_MODEL_BYTES = 1.75 * 2 ** 30;

const FN = 'openModel';
const FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'vocab.json', 'merges.txt', 'vocab.txt'];

/** @type {Promise<any> | undefined} */
let loading;
/** @type {any} the GPT-2 module once instantiated */
let instance;
const gpt2Core = () => (loading ??= createGpt2Core().then((core) => (instance = core)));

/** Current size of the GPT-2 module's wasm memory in bytes (0 before the first openModel call). */
export const memoryBytes = () => (instance ? instance.HEAPF64.buffer.byteLength : 0);

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

async function openGpt2Tokenizer(files, signal) {
  if (files['tokenizer.json'] !== undefined)
    return loadTokenizer({ 'tokenizer.json': await readJson(files['tokenizer.json'], FN, 'tokenizer.json', signal) });
  if (files['vocab.json'] !== undefined && files['merges.txt'] !== undefined)
    return loadTokenizer({
      'vocab.json': await readJson(files['vocab.json'], FN, 'vocab.json', signal),
      'merges.txt': await readText(files['merges.txt'], FN, 'merges.txt', signal),
    });
  throw new TypeError(`${FN}: files needs 'tokenizer.json' (or 'vocab.json' and 'merges.txt')`);
}

/** The model's parameters (name, shape) as the core lays them out. */
function parametersOf(raw) {
  return Array.from({ length: raw.parameterCount() }, (_, index) => {
    const [name, rows, cols] = raw.parameter(index).split(' ');
    return { index, name, rows: Number(rows), cols: Number(cols) };
  });
}

function sameShape(shape, { rows, cols }) {
  if (shape.length === 1) return rows === 1 && shape[0] === cols;
  return shape.length === 2 && shape[0] === rows && shape[1] === cols;
}

async function openBertTokenizer(files, signal) {
  if (files['tokenizer.json'] !== undefined)
    return loadWordPieceTokenizer({
      'tokenizer.json': await readJson(files['tokenizer.json'], FN, 'tokenizer.json', signal),
    });
  if (files['vocab.txt'] !== undefined)
    return loadWordPieceTokenizer({ 'vocab.txt': await readText(files['vocab.txt'], FN, 'vocab.txt', signal) });
  throw new TypeError(`${FN}: a BERT model needs 'tokenizer.json' or 'vocab.txt'`);
}

// What differs between the families: config, tokenizer, the name prefix of the
// checkpoint's tensors, the core's class and its configure() arguments, the wrapper.
const FAMILIES = {
  gpt2: {
    readConfig: readGpt2Config,
    openTokenizer: openGpt2Tokenizer,
    prefix: 'transformer.',
    Raw: (core) => core._Gpt2Model,
    // lm_head.weight stored: a separate output layer, else tied to wte.
    configure: (raw, c, names) =>
      raw.configure(
        c.n_layer,
        c.n_head,
        c.n_embd,
        c.n_positions,
        c.vocab_size,
        c.n_inner,
        c.layer_norm_epsilon,
        ACTIVATIONS[c.activation_function] === 'erf',
        names.has('lm_head.weight'),
      ),
    Model: Gpt2,
  },
  bert: {
    readConfig: readBertConfig,
    openTokenizer: openBertTokenizer,
    prefix: 'bert.',
    Raw: (core) => core._BertModel,
    // The masked-LM head (cls.predictions.*) stored: BertForMaskedLM, else the encoder alone.
    configure: (raw, c, names) =>
      raw.configure(
        c.num_hidden_layers,
        c.num_attention_heads,
        c.hidden_size,
        c.intermediate_size,
        c.max_position_embeddings,
        c.type_vocab_size,
        c.vocab_size,
        c.layer_norm_eps,
        ACTIVATIONS[c.hidden_act] === 'erf',
        names.has('cls.predictions.transform.dense.weight'),
      ),
    Model: Bert,
  },
};

/** The family config.json names (model_type; GPT-2 when absent, as older GPT-2 folders have none). */
function familyOf(json) {
  const type = isPlainObject(json) && json.model_type !== undefined ? json.model_type : 'gpt2';
  if (!Object.hasOwn(FAMILIES, type))
    throw new RangeError(
      `${FN}: config.json's model_type is ${JSON.stringify(type)}; 'gpt2' and 'bert' models open here`,
    );
  return FAMILIES[type];
}

/** Tensor names without the family's prefix ("transformer.", "bert."). */
const unprefixed = (name, prefix) => (name.startsWith(prefix) ? name.slice(prefix.length) : name);

/** Each parameter's tensor in the header (names with or without the prefix), checked. */
function matchTensors(tensors, parameters, prefix) {
  const byName = new Map();
  for (const t of tensors) {
    const name = unprefixed(t.name, prefix);
    if (byName.has(name))
      throw new RangeError(`${FN}: model.safetensors holds ${name} twice (${byName.get(name).name} and ${t.name})`);
    byName.set(name, t);
  }
  return parameters.map((p) => {
    const t = byName.get(p.name);
    const want = p.rows === 1 ? `[${p.cols}]` : `[${p.rows}, ${p.cols}]`;
    if (!t) throw new RangeError(`${FN}: model.safetensors has no tensor ${p.name} (${want}) for this config.json`);
    if (!sameShape(t.shape, p))
      throw new RangeError(
        `${FN}: model.safetensors: ${t.name} has shape [${t.shape.join(', ')}] but the config needs ${want}`,
      );
    if (!FLOAT_DTYPES.includes(t.dtype))
      throw new RangeError(
        `${FN}: model.safetensors: ${t.name} is ${t.dtype}; weights must be ${FLOAT_DTYPES.join(', ')}`,
      );
    return { parameter: p, tensor: t };
  });
}

/**
 * @param {Record<string, unknown>} files
 * @param {{ onProgress?: (p: { loaded: number, total: number }) => void, signal?: AbortSignal }} [options]
 */
export async function openModel(files, options) {
  if (!isPlainObject(files))
    throw new TypeError(`${FN}: files must be an object of file name -> contents, got ${describe(files)}`);
  readOptions(files, FILES, FN, 'files');
  const { onProgress, signal } = readOptions(options, ['onProgress', 'signal'], FN);
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError(`${FN}: options.onProgress must be a function, got ${describe(onProgress)}`);
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean'))
    throw new TypeError(`${FN}: options.signal must be an AbortSignal, got ${describe(signal)}`);
  for (const name of ['config.json', 'model.safetensors'])
    if (files[name] === undefined) throw new TypeError(`${FN}: files needs '${name}'`);

  const core = await gpt2Core();
  const json = await readJson(files['config.json'], FN, 'config.json', signal);
  const family = familyOf(json);
  const config = family.readConfig(json, FN);
  const tokenizer = await family.openTokenizer(files, signal);
  checkAborted(signal);

  const reader = await ByteReader.open(files['model.safetensors'], FN, 'model.safetensors', signal);
  let raw = null;
  try {
    const headerLength = readHeaderLength(await reader.read(8), reader.size, FN);
    const dataStart = 8 + headerLength;
    const { tensors } = parseHeader(await reader.read(headerLength), reader.size - dataStart, FN);
    const names = new Set(tensors.map((t) => unprefixed(t.name, family.prefix)));
    raw = new (family.Raw(core))();
    throwForStatus(core, family.configure(raw, config, names), FN);
    const parameters = parametersOf(raw);
    const bytes = parameters.reduce((sum, p) => sum + p.rows * p.cols * 4, 0);
    if (bytes > MAX_MODEL_BYTES)
      throw new RangeError(
        `${FN}: the model needs ${mib(bytes)} for its float32 weights, more than the ${mib(MAX_MODEL_BYTES)} it may use of the wasm memory (2 GiB)`,
      );
    const matched = matchTensors(tensors, parameters, family.prefix);
    throwForStatus(core, raw.load(0), FN); // allocate the weights

    // Stream the data section in file order into each tensor's heap buffer.
    const writers = matched
      .map(({ parameter, tensor }) => new TensorWriter(tensor, raw.parameterData(parameter.index)))
      .sort((a, b) => a.begin - b.begin);
    const needed = writers.reduce((end, w) => Math.max(end, w.end), 0);
    let at = 0; // data offset of the next chunk
    let first = 0; // the first writer not yet finished
    onProgress?.({ loaded: dataStart, total: reader.size });
    while (at < needed) {
      checkAborted(signal);
      const chunk = await reader.next();
      if (chunk === null) throw new RangeError(`${FN}: model.safetensors ended after ${dataStart + at} bytes`);
      const heap = core.HEAPF64.buffer;
      while (first < writers.length && writers[first].end <= at) first++;
      for (let i = first; i < writers.length && writers[i].begin < at + chunk.length; i++)
        writers[i].write(heap, chunk, at);
      at += chunk.length;
      onProgress?.({ loaded: Math.min(reader.size, dataStart + at), total: reader.size });
      await nextTask();
    }
    await reader.close();
    onProgress?.({ loaded: reader.size, total: reader.size });
    throwForStatus(core, raw.load(1), FN); // check them, pack the linear ones
    // What explainHead needs to read a layer's weights again (the header's entries only).
    const weights = {
      source: files['model.safetensors'],
      dataStart,
      tensors: new Map(matched.map((m) => [m.parameter.name, m.tensor])),
    };
    return new family.Model(core, raw, config, tokenizer, weights);
  } catch (error) {
    raw?.delete();
    await reader.close().catch(() => {});
    throw error;
  }
}
