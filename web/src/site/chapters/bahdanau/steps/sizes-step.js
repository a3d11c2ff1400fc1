// Step 1 of the Bahdanau chapter: the seed and the sizes every draw follows.
import { code, el } from '../../../dom.js';
import { indexingNote, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { NumberInput } from '../../../number-input.js';
import { clearArgmax } from '../../../predict.js';
import { SCHEMA, setupLines } from '../model.js';

const DEFAULTS = Object.fromEntries(SCHEMA.map((p) => [p.name, p.default]));
const FIELDS = [
  ['seed', 'seed'],
  ['inputLength', 'input_length'],
  ['hiddenSize', 'hidden_size'],
  ['attentionSize', 'attention_size'],
];

/** "the largest weight goes to h3 (41.2 %)", from the live weights (a tie says so). */
function winnerText(r) {
  const best = clearArgmax(r.weights);
  return best === null
    ? 'no single encoder step gets the largest weight (a tie)'
    : `the largest weight goes to h${best + 1} (${shown(100 * r.weights[best])} %)`;
}

export function sizesStep({ state, edit }) {
  const fields = FIELDS.map(([key, label]) => {
    const { min, max } = SCHEMA.find((p) => p.name === key);
    return new NumberInput({
      caption: label,
      label,
      integer: true,
      width: '7.5em',
      value: state[key],
      min,
      max,
      scrub: { step: 1 },
      onChange: (x) => edit({ [key]: x }),
    });
  });
  const resetButton = el(
    'button',
    { type: 'button', className: 'small', on: { click: () => edit(DEFAULTS, { program: true }) } },
    'back to the article (42, 5, 16, 10)',
  );
  const out = outputBlock('the draws and their shapes');
  const tryOne = liveExperiment({
    label: 'input_length = 1',
    explain: (r) =>
      state.inputLength === 1
        ? `One encoder step: softmax has nothing to choose from, α1 = ${shown(r.weights[0])}, and the context is h1 itself.`
        : 'Keeps a single encoder step: softmax then has nothing to choose from and gives it all the weight.',
    apply: () => edit({ inputLength: 1 }, { program: true }),
  });
  const tryReseed = liveExperiment({
    label: 'the next seed',
    explain: (r) =>
      `Draws every number again from seed ${state.seed + 1}. With seed ${state.seed} and these sizes, ${winnerText(r)}.`,
    apply: () => edit({ seed: (state.seed + 1) % 4294967296 }, { program: true }),
  });
  const element = step({
    title: '1. Seed and sizes',
    intro: [
      el(
        'p',
        {},
        'In a trained translator the encoder states, the decoder state and the two weight matrices would come out of training. To study the arithmetic, standard normal random numbers do just as well. ',
        'The generator behind ',
        code('new api.RandomState(seed)'),
        ' reproduces NumPy’s ',
        code('np.random.seed'),
        ' / ',
        code('randn'),
        ' stream bit for bit, so with seed 42 and the sizes below you get the very numbers the NumPy version prints. Change the seed or any size and everything below is redrawn and recomputed.',
      ),
      indexingNote(),
    ],
    controls: [...fields.map((f) => f.element), resetButton],
    output: out,
    after: [tryOne.element, tryReseed.element],
  });
  return {
    element,
    show(r) {
      out.textContent = setupLines(state);
      tryOne.show(r);
      tryReseed.show(r);
    },
    sync: () => FIELDS.forEach(([key], i) => fields[i].set(state[key])),
  };
}
