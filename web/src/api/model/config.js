// What every family's config.json reader (families/<family>/config.js) shares:
// the GELU forms activation names stand for, and the check of a size field.
import { describe } from '../errors.js';

/** activation_function values and the GELU form each names (Hugging Face's ACT2FN). */
export const ACTIVATIONS = Object.freeze({
  gelu_new: 'tanh',
  gelu_pytorch_tanh: 'tanh',
  gelu_fast: 'tanh',
  gelu: 'erf',
});

/** Largest size accepted in a config.json field (n_layer, hidden_size, ...; before any size check). */
export const MAX_SIZE = 2 ** 24;
/** Most layers accepted (GPT-2 XL has 48; the core's limit too). */
export const MAX_LAYERS = 4096;

/** config[key] (or `fallback` when absent): an integer in [1, MAX_SIZE], else an error naming the field. */
export function requireSize(config, key, fn, fallback) {
  const value = config[key] ?? fallback;
  if (value === undefined) throw new RangeError(`${fn}: config.json has no ${key}`);
  if (typeof value !== 'number')
    throw new TypeError(`${fn}: config.json's ${key} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > MAX_SIZE)
    throw new RangeError(`${fn}: config.json's ${key} must be an integer in [1, ${MAX_SIZE}], got ${value}`);
  return value;
}
