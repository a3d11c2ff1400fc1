// The hands-on Transformer chapter, step 7: the three uses of attention in a Transformer.
import { el } from '../../../dom.js';
import { asInput, experiment, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { TokenLines } from '../../../figures/token-lines.js';
import { UsesDiagram } from '../../../figures/uses-diagram.js';
import * as M from '../model.js';
import { numpyLinesBlock, seedField, setControl, textField } from './parts.js';

export function usesStep({ state, edit, figures, explain, questions }) {
  const lines = numpyLinesBlock('the NumPy lines that draw the three uses');
  const ids = ['encoderSelf', 'decoderSelf', 'cross'];
  // The embeddings the three uses start from: the readouts outline the rows a weight came from.
  const sFig = asInput(new Heatmap({ palette: 'blue', label: 'source embeddings S (encoder input)', caption: 'S' }));
  const tFig = asInput(new Heatmap({ palette: 'blue', label: 'target embeddings T (decoder input)', caption: 'T' }));
  Object.assign(figures, { 'uses.S': sFig, 'uses.T': tFig });
  const uses = M.USES.map((name, u) => ({
    name,
    figs: [0, 1].map((h) => {
      const map = new Heatmap({
        palette: 'orange',
        label: `${name}, head ${h + 1}`,
        weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
        rotateColLabels: true,
        colLabelsOnTop: true,
        explain: explain(`uses${u}.head${h}.weights`),
      });
      figures[`uses${u}.head${h}.weights`] = map;
      return map;
    }),
    // The same weights as lines between tokens, a colour per head.
    lines: new TokenLines({ label: `${name}: lines from each query token to the key tokens, one colour per head` }),
  }));
  const blocks = uses.map((u, i) =>
    el(
      'div',
      { className: 'use', dataset: { use: ids[i] } },
      el('h3', { className: 'sub-title' }, u.name),
      el('div', { className: 'figures' }, ...u.figs.map((f) => f.element), u.lines.element),
    ),
  );
  // Choosing a box in the diagram brings that use's maps into view.
  const diagram = new UsesDiagram({
    unit: 'word', // this chapter's decoder works on words 'Where the three uses sit (one layer of each stack, two heads). Choose a purple box to go to its maps.',
    onSelect: (id) => {
      const block = blocks[ids.indexOf(id)];
      for (const b of blocks) b.classList.toggle('is-chosen', b === block);
      block.scrollIntoView({ block: 'nearest' });
      diagram.update({ ...diagramState, selected: id });
    },
  });
  let diagramState = null;
  return {
    element: step({
      title: '7. Three uses in a Transformer',
      intro: [
        el(
          'p',
          {},
          'The same multi-head attention appears three times. In the encoder, every source token attends to every source token (self-attention; padding masked). ',
          'In the decoder, every target token attends to the target tokens up to itself (masked self-attention). Between them, every target token queries the encoder’s output: ',
          'queries from the decoder, keys and values from the encoder (encoder–decoder attention). Two heads each, random weights; edit the sentences.',
        ),
      ],
      controls: [
        textField(
          'source sentence (encoder)',
          state.source,
          edit((t) => (state.source = t)),
        ),
        textField(
          'target sentence (decoder)',
          state.target,
          edit((t) => (state.target = t)),
        ),
        seedField(
          'weights seed',
          state.usesSeed,
          edit((v) => (state.usesSeed = v)),
        ),
      ],
      output: lines,
      figures: [diagram.element, el('div', { className: 'figures' }, sFig.element, tFig.element), ...blocks],
      predict: questions.uses,
      after: [
        experiment({
          label: 'a longer target, “<s> the black cat is asleep”',
          explain:
            'The decoder’s maps gain rows (one query per target token); the encoder’s do not change, since its sentence did not.',
          apply: () =>
            setControl(
              diagram.element.closest('article') ?? document,
              'target sentence (decoder)',
              '<s> the black cat is asleep',
            ),
        }),
      ],
    }),
    show({ S, T, runs }) {
      sFig.update(S, { rowLabels: runs[0].rowLabels });
      tFig.update(T, { rowLabels: runs[1].rowLabels });
      runs.forEach((run, u) => {
        run.weights.forEach((w, h) =>
          uses[u].figs[h].update(w, { rowLabels: run.rowLabels, colLabels: run.colLabels, isMasked: run.isMasked }),
        );
        uses[u].lines.update({
          queries: run.rowLabels,
          keys: run.colLabels,
          heads: run.weights.map((weights, h) => ({ name: `head ${h + 1}`, weights })),
        });
      });
      diagramState = { layers: 1, heads: 2, selected: null, source: state.source, target: state.target };
      diagram.update(diagramState);
      lines.textContent = M.usesNumpyLines(state.usesSeed);
      questions.uses.update(runs[2]);
    },
  };
}
