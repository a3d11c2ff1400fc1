// Step 7 of the KV-cache chapter: the cache of the model opened in the "Open a
// real model" chapter, for one head and a sentence: its real keys and values, the
// last token's query against them, and the same row from the full recomputation.
import { el } from '../../../dom.js';
import { asInput, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { bitsOf } from '../../../float-bits.js';
import { bytesPerToken, configShape } from '../configs.js';
import { openedHeadStages } from '../model.js';
import { intField, thousands, tracedMap } from './shared.js';

export const OPENED_SENTENCE = 'keys and values stay in the cache';

/** The model's layer and head counts (config.json's names), or null. */
const sizesOf = (model) => configShape(model?.config);

export function openedStep(ctx, { api, opened, trace, root }) {
  const { figures } = ctx;
  const chosen = { layer: 1, head: 1 };
  const layer = intField('layer', 1, 1, 96, (v) => ((chosen.layer = v), read()));
  const head = intField('head', 1, 1, 128, (v) => ((chosen.head = v), read()));
  const sentence = el('input', {
    type: 'text',
    value: OPENED_SENTENCE,
    size: 40,
    maxLength: 200,
    attrs: { 'aria-label': 'sentence for the opened model' },
    on: { change: () => read() },
  });
  const maps = {
    realK: asInput(
      new Heatmap({ palette: 'green', label: 'the opened model’s K cache for this head', pixelAbove: 400 }),
    ),
    realV: asInput(
      new Heatmap({ palette: 'blue', label: 'the opened model’s V cache for this head', pixelAbove: 400 }),
    ),
  };
  Object.assign(figures, maps);
  const weights = tracedMap(
    ctx,
    'realWeights',
    { palette: 'purple', weights: true, label: 'the last token’s weights over the real cache', rotateColLabels: true },
    'the last token’s query against every cached key',
  );
  const status = el('p', { className: 'worked' });
  const bits = outputBlock('the real row from the cache and from the full recomputation, in hex');
  // In the page only while it shows a model's numbers (no hidden figure waits there unexplained).
  const slot = el('div');
  const results = el(
    'div',
    {},
    el(
      'div',
      { className: 'figures' },
      captioned(maps.realK, 'K cache (from the model)'),
      captioned(maps.realV, 'V cache (from the model)'),
      weights.element,
    ),
    bits,
  );
  const element = step({
    title: '7. The opened model’s own cache',
    intro: [
      'The same check on a real model: the keys and values one head of the model opened in the “Open a real model” chapter computes for a sentence (read from its weights by the API’s explainHead), the last token’s query against them, and the last row of that head’s full causal attention.',
    ],
    controls: [layer.element, head.element, el('label', { className: 'control' }, 'sentence ', sentence)],
    after: [status, slot],
  });
  let asked = 0;
  function read() {
    const model = opened.current();
    const sizes = sizesOf(model);
    const ask = ++asked;
    // BERT gives its heads' q, k, v too, but reads both ways: a new token changes earlier tokens' keys from layer 2 on.
    const bidirectional = model?.family === 'bert';
    if (!model || typeof model.explainHead !== 'function' || !sizes || bidirectional) {
      slot.replaceChildren();
      status.textContent = !model
        ? 'Open a model in the “Open a real model” chapter, then come back: its real keys and values show here.'
        : bidirectional
          ? 'The opened BERT reads in both directions: from its second layer on, a new token changes the vectors, so the keys and values, of every earlier token, and there is nothing to keep. Open a decoder (GPT-2 or a Llama-style model) to see its cache.'
          : 'The opened model does not give its heads’ q, k and v.';
      root.dataset.openedModel = 'none';
      return;
    }
    const options = { layer: Math.min(chosen.layer, sizes.layers) - 1, head: Math.min(chosen.head, sizes.heads) - 1 };
    status.textContent = `Reading layer ${options.layer + 1}, head ${options.head + 1}…`;
    model.explainHead(sentence.value.trim() || OPENED_SENTENCE, options).then(
      (answer) => {
        if (ask !== asked) return;
        const run = openedHeadStages(api, answer, trace);
        if (run.firstFailure()) throw run.firstFailure();
        show(run.r, sizes, options);
      },
      (error) => {
        if (ask !== asked) return;
        slot.replaceChildren();
        status.textContent = error instanceof Error ? error.message : String(error);
        root.dataset.openedModel = 'error';
      },
    );
  }
  function show(r, sizes, { layer: l, head: h }) {
    slot.replaceChildren(results);
    maps.realK.update(r.realK, { rowLabels: r.labels });
    maps.realV.update(r.realV, { rowLabels: r.labels });
    weights.map.update(r.realWeights, { rowLabels: [`q${r.tokens}`], colLabels: r.labels });
    const perToken = bytesPerToken(sizes);
    status.textContent = `Layer ${l + 1}, head ${h + 1}: ${r.tokens} tokens cached, ${r.realK.cols} numbers per key. The whole model caches ${thousands(perToken)} bytes per token in float32, ${thousands(perToken * r.tokens)} bytes for this sentence. ${
      r.same.identical
        ? `The last token’s row from the cache equals the full recomputation’s last row in all 64 bits of all ${r.same.entries.length} entries.`
        : `The two rows differ by up to ${r.same.worst} ulp(s).`
    }`;
    bits.textContent = r.same.entries
      .slice(0, 4)
      .map(
        (e, k) =>
          `entry ${k + 1}: cache 0x${bitsOf(e.a)}  full 0x${bitsOf(e.b)}  ${e.ulps === 0 ? 'same bits' : `${e.ulps} ulp(s) apart`}`,
      )
      .concat(
        r.same.entries.length > 4
          ? [
              `… ${r.same.entries.length - 4} more entries, ${r.same.identical ? 'all the same bits' : `worst ${r.same.worst} ulp(s)`}`,
            ]
          : [],
      )
      .join('\n');
    root.dataset.openedModel = 'shown';
  }
  return { element, read };
}
