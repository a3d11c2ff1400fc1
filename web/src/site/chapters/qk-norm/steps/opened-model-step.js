// Step 6 of the QK-norm chapter: the opened model's own q and k (from the model
// chapter), their RMS per token and their logits; whether the family has QK-norm.
import { el } from '../../../dom.js';
import { asInput, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { tracedApi } from '../../../explain/traced-api.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { firstTokens, openedModelView } from '../../../lesson-kit/opened-model.js';
import { rootMeanSquare } from '../../../explain/rms-norm.js';
import { clearArgmax, leader, prediction } from '../../../predict.js';
import { largestMagnitude } from './shared.js';

/** Families whose attention normalises q and k per head (q_norm, k_norm weights). */
export const QK_NORM_FAMILIES = ['qwen3', 'gemma3'];
const FIRST_TOKENS = 12; // the most tokens the figures show

const rowRms = (m) => Array.from({ length: m.rows }, (_, i) => rootMeanSquare(Array.from(m.row(i)), 0));

// The question: which token's query has the largest RMS.
const largestRms = () =>
  prediction({
    question: 'Which token’s query has the largest RMS in this head?',
    choices: (d) => d.tokens.map((t, i) => `${i + 1}: ${t}`),
    answer: (d) => clearArgmax(d.rms),
    explain: (d) => `the largest RMS is ${leader(d.tokens, d.rms, 'rms = ')}.`,
  });

export function openedModelStep({ api, figures, story, trace, signal }) {
  const t = tracedApi(api, trace);
  function show({ model, layer, head }, inputs) {
    const { T, cut, tokens } = firstTokens(api, inputs, FIRST_TOKENS);
    const [q, k] = [cut(inputs.q), cut(inputs.k)];
    t.input('modelQ', q, { symbol: 'Q', row: 'q', rowLabels: tokens });
    t.input('modelK', k, { symbol: 'K', row: 'k', rowLabels: tokens });
    const names = { out: { name: 'modelLogits', symbol: 'S' }, scores: { name: 'modelProducts', symbol: 'QKᵀ' } };
    const logits = t.name(names).attentionScores(q, k, { scaled: true });
    const qMap = asInput(new Heatmap({ palette: 'bone', label: 'the model’s queries q', annotate: false }));
    const logitMap = new Heatmap({
      palette: 'orange',
      label: 'the model’s logits q·k/√d, every pair before the causal mask',
      colLabelsOnTop: true,
      explain: story('modelLogits'),
    });
    figures.modelQ = qMap;
    figures.modelLogits = logitMap;
    const normed = QK_NORM_FAMILIES.includes(model.family);
    const [qr, kr] = [rowRms(q), rowRms(k)];
    const sentence = el(
      'p',
      { className: 'live-sentence' },
      `Layer ${layer + 1}, head ${head + 1} of this ${model.family} model (the first ${T} tokens): the RMS of q per token runs from ${shown(Math.min(...qr))} to ${shown(Math.max(...qr))}, of k from ${shown(Math.min(...kr))} to ${shown(Math.max(...kr))}; the largest |logit| is ${shown(largestMagnitude(logits))}. `,
      normed
        ? 'This family normalises q and k per head (its q_norm and k_norm weights are the gain g), so the rows’ RMS is set by those learned weights, not by the size of the projections.'
        : 'This family has no QK-norm: the rows’ RMS is whatever the projections make it.',
    );
    const figuresBox = el(
      'div',
      { className: 'figures' },
      captioned(qMap, 'q, one row per token'),
      captioned(logitMap, 'logits'),
    );
    const draw = () => {
      qMap.update(q, { rowLabels: tokens });
      logitMap.update(logits, { rowLabels: tokens, colLabels: tokens });
    };
    return { nodes: [sentence, figuresBox], data: { rms: qr, tokens }, draw };
  }
  const view = openedModelView({
    signal,
    empty:
      'Open a model in the chapter “Open a real model” (a Qwen3 or Gemma 3 has QK-norm; SmolLM2 and GPT-2 do not) to see its real q and k here.',
    accepts: (model) => typeof model.explainHead === 'function',
    refused: (model) => `The ${model.family} model open now does not give its heads’ q and k.`,
    show,
    question: largestRms(),
  });
  const element = step({
    title: '6. In the model you opened',
    intro: ['The same measurements on a real head: the RMS of each token’s query and key, and the logits they make.'],
    after: [view],
  });
  return { element };
}
