// The model chapter's overview: the whole opened model drawn from its config
// (figures/model-overview.js), with the chosen token's attention in every
// layer and its probability at the output; choosing a layer's attention box
// opens that layer in the chapter's head views.
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { shown } from '../../../explain/format.js';
import { ModelOverview } from '../../../figures/model-overview.js';
import { strip } from '../architecture.js';

/** The largest weight of each head's row, for a strip's readout: "head 2 reads ‘cat’ most (0.61)". */
function stripSentence(rows, layer, i, labels) {
  const parts = [];
  for (let h = 0; h < rows.heads; h++) {
    const row = rows.row(layer, h, i);
    let best = 0;
    for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
    parts.push(`head ${h + 1} reads “${labels[best]}” most (${shown(row[best])})`);
  }
  return `The strip: token ${i + 1} “${labels[i]}”’s attention, one row per head, one column per token it may read: ${parts.join('; ')}.`;
}

/**
 * @param {{ onSelectLayer: (layer: number) => void, onChooseToken: (i: number) => void, predict?: any }} actions
 */
export function overviewStep({ onSelectLayer, onChooseToken, predict }) {
  const figure = new ModelOverview({
    label: 'the whole model, from its config.json: one row of boxes per layer',
    onSelectLayer,
  });
  const picker = el('select', {
    className: 'overview-token',
    attrs: { 'aria-label': 'the token whose attention the overview shows' },
    on: { change: () => onChooseToken(Number(picker.value)) },
  });
  const intro = el('p', {});
  const element = step({
    title: '7. The whole model',
    intro: [intro],
    controls: [el('label', { className: 'control' }, 'Token: ', picker)],
    predict,
    figures: [figure.element],
  });
  let drawn = null; // the architecture drawn last
  return {
    element,
    figure,
    /**
     * arch: architectureOf(…); rows: the AttentionRows of the text; chosen: the token shown;
     * labels: every token's label; headText: the output head's live sentence.
     */
    show({ arch, rows, chosen, labels, selectedLayer, headText }) {
      const d = arch.dims;
      const gqa = d.KV < d.H ? `, ${d.H} query heads sharing KV = ${d.KV} key/value heads` : `, H = ${d.H} heads`;
      intro.textContent =
        `The whole ${arch.family} model, from its config.json: T = ${d.T} tokens, each a vector of D = ${d.D} numbers, through ${arch.layers.length} layers${gqa} of hd = ${d.hd}, an MLP of F = ${d.F}, a vocabulary of V = ${d.V}. ` +
        'Every layer reads the running stream of vectors and adds its attention’s and its MLP’s outputs back into it. In each attention box, the strip is the chosen token’s attention: one row per head, one column per token it may read. Choose an attention box to open that layer’s heads above.';
      if (drawn !== arch) {
        figure.update(arch);
        predict?.update(arch);
      }
      drawn = arch;
      figure.select(selectedLayer);
      const n = rows.length;
      picker.replaceChildren(
        ...labels
          .slice(0, n)
          .map((t, i) =>
            el(
              'option',
              { value: String(i), selected: i === chosen },
              `${i + 1}: ${t}${i >= rows.promptLength ? ' (generated)' : ''}`,
            ),
          ),
      );
      const cols = rows.causal ? chosen + 1 : rows.promptLength;
      const strips = arch.layers.map((_, l) => strip((L, h, i) => rows.row(L, h, i), l, rows.heads, chosen, cols));
      figure.setStrips(strips, (l) => stripSentence(rows, l, chosen, labels), headText);
      figure.caption.textContent = `Strips: token ${chosen + 1} “${labels[chosen]}” in every layer (the stronger the colour, the more weight, on a 0 to 1 scale).`;
    },
  };
}
