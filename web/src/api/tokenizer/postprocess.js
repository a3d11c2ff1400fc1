// tokenizer.json's post_processor: the special tokens put around the text's ids
// (Llama's and Gemma's BOS, BERT's [CLS] … [SEP]). Read into one plain template
// per case: a list whose items are 'A', 'B' (the texts' ids) or an array of ids.

import { describe, isPlainObject } from '../errors.js';

const NONE = { single: ['A'], pair: ['A', 'B'] };

function idOf(pair, fn, where) {
  if (!Array.isArray(pair) || pair.length !== 2 || !Number.isInteger(pair[1]) || pair[1] < 0)
    throw new TypeError(`${fn}: ${where} must be [token, id], got ${describe(pair)}`);
  return pair[1];
}

function readTemplate(list, specials, fn, where) {
  if (!Array.isArray(list)) throw new TypeError(`${fn}: ${where} must be an array, got ${describe(list)}`);
  return list.map((item, i) => {
    if (isPlainObject(item?.Sequence)) {
      const id = item.Sequence.id;
      if (id !== 'A' && id !== 'B')
        throw new RangeError(`${fn}: ${where}[${i}].Sequence.id must be 'A' or 'B', got ${JSON.stringify(id)}`);
      return id;
    }
    if (isPlainObject(item?.SpecialToken)) {
      const name = item.SpecialToken.id;
      const special = isPlainObject(specials) ? specials[name] : undefined;
      if (
        !isPlainObject(special) ||
        !Array.isArray(special.ids) ||
        !special.ids.every((x) => Number.isInteger(x) && x >= 0)
      )
        throw new RangeError(
          `${fn}: ${where}[${i}] names the special token ${JSON.stringify(name)}, which special_tokens does not give ids`,
        );
      return special.ids.slice();
    }
    throw new TypeError(`${fn}: ${where}[${i}] must be { Sequence } or { SpecialToken }, got ${describe(item)}`);
  });
}

/**
 * The templates of a post_processor: { single, pair }.
 * @returns {{ single: Array<'A' | 'B' | number[]>, pair: Array<'A' | 'B' | number[]> }}
 */
export function readPostProcessor(json, fn, where) {
  if (json === null || json === undefined) return NONE;
  if (!isPlainObject(json)) throw new TypeError(`${fn}: ${where} must be an object, got ${describe(json)}`);
  switch (json.type) {
    case 'ByteLevel': // offsets only: the ids stay as they are
      return NONE;
    case 'TemplateProcessing':
      return {
        single: readTemplate(json.single, json.special_tokens, fn, `${where}.single`),
        pair: readTemplate(json.pair, json.special_tokens, fn, `${where}.pair`),
      };
    case 'BertProcessing':
    case 'RobertaProcessing': {
      const cls = [idOf(json.cls, fn, `${where}.cls`)];
      const sep = [idOf(json.sep, fn, `${where}.sep`)];
      const pair = json.type === 'BertProcessing' ? [cls, 'A', sep, 'B', sep] : [cls, 'A', sep, sep, 'B', sep];
      return { single: [cls, 'A', sep], pair };
    }
    case 'Sequence': {
      const list = json.processors;
      if (!Array.isArray(list))
        throw new TypeError(`${fn}: ${where}.processors must be an array, got ${describe(list)}`);
      const steps = list.map((p, i) => readPostProcessor(p, fn, `${where}.processors[${i}]`));
      const changing = steps.filter((s) => s !== NONE);
      if (changing.length > 1)
        throw new RangeError(`${fn}: ${where} has ${changing.length} steps that add tokens; one is supported`);
      return changing[0] ?? NONE;
    }
    default:
      throw new RangeError(`${fn}: ${where} type ${JSON.stringify(json.type)} is not supported`);
  }
}

/** The ids of a template filled with the texts' ids. */
export function applyTemplate(template, a, b = []) {
  const out = [];
  for (const item of template) {
    const ids = item === 'A' ? a : item === 'B' ? b : item;
    for (const id of ids) out.push(id);
  }
  return out;
}
