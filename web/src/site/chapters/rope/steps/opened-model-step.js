// Step 5 of the RoPE chapter: the opened model's own q (from the model chapter),
// turned by the core with its config's rope_theta and rope_scaling, next to the
// model's own rotated q.
import { el } from '../../../dom.js';
import { asInput, indexLabels, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { rotationOfConfig } from '../../../explain/rotary.js';
import { tracedApi } from '../../../explain/traced-api.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { firstTokens, openedModelView } from '../../../lesson-kit/opened-model.js';
import { prediction } from '../../../predict.js';

const FIRST_TOKENS = 12; // the most tokens the figures show
/** Float32 rounding of a model's own rotation against the core's float64 one: agreement within 1e-3. */
const AGREE = 1e-3;
const agreement = () =>
  prediction({
    question:
      'Will the core’s rotation of this q, with the config’s settings, match the model’s own rotated q within 0.001?',
    choices: ['yes', 'no'],
    answer: (d) => (d.gap === null ? null : d.gap <= AGREE ? 0 : 1),
    explain: (d) =>
      d.gap === null ? 'the model did not hand over its rotated q.' : `the largest difference is ${shown(d.gap)}.`,
  });

export function openedModelStep({ api, figures, story, trace, signal }) {
  const t = tracedApi(api, trace);
  function show({ model, layer, head }, inputs) {
    const { T, cut, tokens } = firstTokens(api, inputs, FIRST_TOKENS);
    const q = cut(inputs.q);
    const { base, baseName, scaling } = rotationOfConfig(model.config ?? {}, inputs.window != null);
    t.input('modelQ', q, { symbol: 'q', row: 'q', rowLabels: tokens });
    const turned = t
      .name('modelQRot', { symbol: 'q′', row: 'q′', rowLabels: tokens })
      .rotaryEmbedding(q, { base, scaling });
    const own = inputs.qRotated ? cut(inputs.qRotated) : null;
    const qMap = asInput(new Heatmap({ palette: 'bone', label: 'the model’s q before the rotation', annotate: false }));
    const turnedMap = new Heatmap({
      palette: 'orange',
      label: 'that q turned by the core with the model’s rope_theta',
      annotate: false,
      explain: story('modelQRot'),
    });
    figures.modelQ = qMap;
    figures.modelQRot = turnedMap;
    const cols = indexLabels(q.cols);
    const gap = own ? Math.max(...Array.from(turned.data, (x, i) => Math.abs(x - own.data[i]))) : null;
    const sentence = el(
      'p',
      { className: 'live-sentence' },
      `Layer ${layer + 1}, head ${head + 1} of this ${model.family} model, first ${T} tokens (row r is position r − 1), head size ${q.cols}, ${baseName} ${shown(base)}${scaling ? `, rope_scaling ${scaling.rope_type}` : ''}. `,
      gap === null
        ? 'The model did not hand over its own rotated q to compare.'
        : `The largest difference between this rotation and the model’s own rotated q is ${shown(gap)} (the model computes in float32).`,
    );
    const figuresBox = el(
      'div',
      { className: 'figures' },
      captioned(qMap, 'q: one row per token'),
      captioned(turnedMap, 'q turned'),
    );
    const draw = () => {
      qMap.update(q, { rowLabels: tokens, colLabels: cols });
      turnedMap.update(turned, { rowLabels: tokens, colLabels: cols });
    };
    return { nodes: [sentence, figuresBox], data: { gap }, draw };
  }
  const view = openedModelView({
    signal,
    empty:
      'Open a Llama-style model (SmolLM2, Qwen3, Gemma 3) in the chapter “Open a real model” to see its own q turned here.',
    accepts: (model) => typeof model.explainHead === 'function' && !['gpt2', 'bert'].includes(model.family),
    refused: (model) =>
      `The ${model.family} model open now adds learned position vectors to its inputs instead of turning q and k: open a Llama-style model to see RoPE at work.`,
    show,
    question: agreement(),
  });
  const element = step({
    title: '5. In the model you opened',
    intro: [
      'A real head’s queries, read from the model, turned position by position with the settings of its config.json.',
    ],
    after: [view],
  });
  return { element };
}
