// A GPT-2 opened from Hugging Face files (open.js): its weights live in the
// wasm core (cpp/models/families/gpt2/) inside a `_Gpt2Model` that the base
// owns; run and runIds are every decoder's (causal_model.js). Every result is a
// JS copy. config: the checked config.json fields (n_layer, n_head, n_embd,
// n_positions, vocab_size, ...); tokenizer: from tokenizer.json (or vocab.json + merges.txt).
import { readOptions, requireInteger, throwForStatus } from '../../../errors.js';
import { rawOf } from '../../../handle.js';
import { withHeap } from '../../../heap.js';
import { Matrix } from '../../../matrix.js';
import { coreOf } from '../../base_model.js';
import { CausalModel, encodeText, eosIds, forwardIn, tokenText } from '../../causal_model.js';
import { readHeadWeights } from './head_weights.js';

export class Gpt2 extends CausalModel {
  /** @internal */
  constructor(core, raw, config, tokenizer, weights) {
    super(core, raw, 'Gpt2Model', 'gpt2', config, tokenizer, weights, {
      layers: config.n_layer,
      heads: config.n_head,
      vocab: config.vocab_size,
      positions: config.n_positions,
      positionsName: 'n_positions',
      stop: eosIds(config.eos_token_id),
      temperature: 0, // GPT-2 folders have no generation_config.json: greedy
    });
  }

  /**
   * What one head computed on `text`, to explain its weights down to q·k: its queries,
   * keys and values (T x d_k float32 Matrices, as the model's attention op read them),
   * the rows they were projected from (x: T x n_embd, ln_1 of the residual stream) and
   * the head's weight columns and biases (wq, wk, wv: n_embd x d_k; bq, bk, bv: 1 x d_k),
   * so q = x wq + bq. Costs nothing until called: it reads the layer's ln_1 and c_attn
   * weights again from model.safetensors (the Blob/File, buffer or URL the model was
   * opened from), runs the model, and applies ln_1 and the head's columns of c_attn with
   * the core's ops.
   * @param {string} text
   * @param {{ layer: number, head: number, signal?: AbortSignal }} options
   */
  async explainHead(text, options) {
    const fn = 'Gpt2Model.explainHead';
    rawOf(this, 'explainHead');
    const ids = encodeText(this, fn, text);
    const { layer, head, signal } = readOptions(options, ['layer', 'head', 'signal'], fn);
    const { n_layer, n_head, n_embd } = this.config;
    requireInteger(layer, fn, 'options.layer', 0, n_layer - 1);
    requireInteger(head, fn, 'options.head', 0, n_head - 1);
    const w = await readHeadWeights(this, this.config, layer, head, fn, signal);
    const raw = rawOf(this, 'explainHead'); // deleted while the weights were read?
    const core = coreOf(this);
    const dk = n_embd / n_head;
    const T = ids.length;
    return withHeap(
      core,
      fn,
      (heap) => {
        forwardIn(raw, heap, ids, fn);
        const vector = (v, name) => heap.matrix({ rows: 1, cols: v.length, data: v }, name);
        const width = n_embd + 3 * dk;
        const out = heap.output(T, width, 'x | q | k | v');
        throwForStatus(
          core,
          raw.headInputs(
            layer,
            vector(w.gamma, 'ln_1.weight'),
            vector(w.beta, 'ln_1.bias'),
            heap.matrix({ rows: n_embd, cols: 3 * dk, data: w.weight }, 'c_attn columns'),
            vector(w.bias, 'c_attn bias'),
            out,
          ),
          fn,
        );
        const all = heap.read(out);
        const columns = (from, cols) => {
          const m = new Float32Array(T * cols);
          for (let i = 0; i < T; i++) m.set(all.subarray(i * width + from, i * width + from + cols), i * cols);
          return new Matrix(T, cols, m);
        };
        const part = (p) => columns(n_embd + p * dk, dk);
        // w.weight is n_embd x 3 d_k (q | k | v columns); each part's d_k of them.
        const weightOf = (p) => {
          const m = new Float32Array(n_embd * dk);
          for (let r = 0; r < n_embd; r++)
            m.set(w.weight.subarray(r * 3 * dk + p * dk, r * 3 * dk + (p + 1) * dk), r * dk);
          return new Matrix(n_embd, dk, m);
        };
        const biasOf = (p) => new Matrix(1, dk, w.bias.slice(p * dk, (p + 1) * dk));
        return {
          tokens: ids.map((id) => tokenText(this, id)),
          ids,
          x: columns(0, n_embd),
          q: part(0),
          k: part(1),
          v: part(2),
          wq: weightOf(0),
          wk: weightOf(1),
          wv: weightOf(2),
          bq: biasOf(0),
          bk: biasOf(1),
          bv: biasOf(2),
        };
      },
      'float32',
    );
  }
}
