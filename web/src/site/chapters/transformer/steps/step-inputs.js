// The hands-on Transformer chapter, step 1: the embeddings X and the queries, keys and values made from them.
import { el } from '../../../dom.js';
import { asInput, experiment, step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import * as M from '../model.js';
import { figure, numpyLinesBlock, seedField, select, setControl, sym, textField } from './parts.js';

export function inputsStep({ state, edit, figures, explain, questions }) {
  const xFig = asInput(figure({ palette: 'blue', label: 'embeddings X, one row per token' }));
  const qFig = figure({ palette: 'purple', label: 'queries Q = X Wq', explain: explain('Q') });
  const kFig = figure({ palette: 'orange', label: 'keys K = X Wk', explain: explain('K') });
  const vFig = figure({ palette: 'green', label: 'values V = X Wv', explain: explain('V') });
  Object.assign(figures, { X: xFig, Q: qFig, K: kFig, V: vFig });
  const lines = numpyLinesBlock('the NumPy lines that draw X and the weights');
  const headsSlot = el('span');
  const renderHeads = () =>
    headsSlot.replaceChildren(
      select(
        'heads',
        M.headChoices(state.dModel),
        state.heads,
        String,
        edit((h) => (state.heads = h)),
      ),
    );
  const sizeControls = [
    textField(
      'tokens',
      state.tokens,
      edit((t) => {
        state.tokens = t;
        state.flips.clear();
      }),
    ),
    select(
      'length',
      M.LENGTHS,
      state.length,
      (n) => (n === 0 ? 'one per token' : `${n} positions`),
      edit((n) => {
        state.length = n;
        state.flips.clear();
      }),
    ),
    select(
      'd_model',
      M.D_MODELS,
      state.dModel,
      String,
      edit((d) => {
        state.dModel = d;
        if (d % state.heads !== 0) state.heads = 1;
        renderHeads();
      }),
    ),
    seedField(
      'seed',
      state.seed,
      edit((s) => (state.seed = s)),
    ),
  ];
  renderHeads();
  return {
    headsSlot,
    element: step({
      title: '1. Queries, keys and values',
      intro: [
        el(
          'p',
          {},
          'Each token starts as an embedding, a row of ',
          tex('X'),
          ' with ',
          tex('d_{\\text{model}}'),
          ' numbers. Three learned matrices turn it into three roles: a query ',
          tex('q'),
          ' (what this token is looking for), a key ',
          tex('k'),
          ' (what it offers to be found by) and a value ',
          tex('v'),
          ' (what it hands over when found).',
        ),
      ],
      formula: `${sym.Q} = ${sym.X} W^Q, \\qquad ${sym.K} = ${sym.X} W^K, \\qquad ${sym.V} = ${sym.X} W^V`,
      controls: sizeControls,
      output: lines,
      figures: [xFig, qFig, kFig, vFig].map((f) => f.element),
      predict: questions.projections,
      after: [
        experiment({
          label: 'repeat words, “the cat saw the cat”',
          explain: 'Compare the rows of the two “the” and of the two “cat” in X, and then in Q, K and V.',
          apply: () => setControl(qFig.element.closest('article') ?? document, 'tokens', 'the cat saw the cat'),
        }),
      ],
    }),
    show(inputs, proj, view) {
      xFig.update(inputs.X, view.rowsOnly);
      qFig.update(proj.Q, view.rowsOnly);
      kFig.update(proj.K, view.rowsOnly);
      vFig.update(proj.V, view.rowsOnly);
      lines.textContent = M.numpyLines(inputs, state.seed);
      questions.projections.update(proj);
    },
  };
}
