// Step 6 of the Basics chapter: softmax turns the scores into weights; with a
// temperature slider, the naive formula's overflow and log-softmax's tiny weights.
import { code, el } from '../../../dom.js';
import { experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { BarChart } from '../../../figures/bar-chart.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatCell, formatFromLog, formatNumpy } from '../../../numpy-format.js';
import { softmaxSentence, temperatureAt, temperedWeights } from '../model.js';
import { alpha, es, row } from './shared.js';

/** The temperature slider and its bar chart of softmax(e / T). */
function temperatureControl(api) {
  let temperature = 1;
  let scores = null;
  const bars = new BarChart({ label: 'weights at temperature T', names: (j) => `α${j + 1}` });
  const value = el('output', { className: 'control-label' }, 'T = 1');
  const slider = el('input', {
    type: 'range',
    min: '-2',
    max: '2',
    step: '0.01',
    value: '0',
    attrs: { 'aria-label': 'temperature T (logarithmic, 0.01 to 100)' },
    on: {
      input: () => {
        temperature = temperatureAt(Number(slider.value));
        draw();
      },
    },
  });
  function draw() {
    if (!scores) return;
    value.textContent = `T = ${temperature}`;
    bars.update(temperedWeights(api, scores, temperature));
  }
  return {
    nodes: [el('div', { className: 'temperature' }, slider, value), bars.element],
    show(next) {
      scores = next;
      draw();
    },
  };
}

export function softmaxStep({ api, state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'attention weights α',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: story('weights'),
  });
  figures.weights = map;
  const sentence = el('p', { className: 'live-sentence' });
  const out = outputBlock('softmax weights as NumPy prints them (float64)');
  const naiveOut = outputBlock('the naive formula in float64');
  const logOut = outputBlock('log-softmax as NumPy prints it');
  const tinyList = el('ul', { className: 'tiny-weights' });
  const temperature = temperatureControl(api);
  const overflowHeading = el('h3', { className: 'sub-title' }, 'Why the formula as written fails');
  const element = step({
    title: '6. Softmax: from scores to weights',
    intro: [
      'Softmax turns scores into positive weights that add up to one. Differences between scores matter, not their size: adding the same number to every score changes nothing.',
    ],
    formula: `${alpha} = \\frac{\\exp(${es})}{\\sum_{j} \\exp(${symbol('scores', 'e_j')})} = \\frac{\\exp(${es} - m)}{\\sum_{j} \\exp(${symbol('scores', 'e_j')} - m)}, \\quad m = \\max_j ${symbol('scores', 'e_j')}`,
    predict: questions.winnerShare,
    output: out,
    figures: [map.element],
    after: [
      sentence,
      experiment({
        label: 'make the last step a copy of the first',
        explain:
          'Equal annotations give equal scores: softmax must then split their weight evenly (the sentence above says how).',
        apply: () => {
          const [first, ...rest] = state.annotations;
          edit({ annotations: [first, ...rest.slice(0, -1), [...first]] }, { program: true });
        },
      }),
      el('h3', { className: 'sub-title' }, 'Temperature'),
      el(
        'p',
        {},
        'Dividing every score by a temperature ',
        tex('T'),
        ' before softmax, ',
        tex('\\alpha = \\operatorname{softmax}(e / T)'),
        ', controls how decisive the weights are: ',
        tex('T = 1'),
        ' gives the weights above, a small ',
        tex('T'),
        ' sends all the weight to the largest score, a large one spreads it evenly.',
      ),
      ...temperature.nodes,
      overflowHeading,
      el(
        'p',
        {},
        'With the notebook’s scores, ',
        tex('\\exp(927)'),
        ' is about ',
        tex('10^{402}'),
        ', far beyond the largest float64 number (',
        tex('\\approx 1.8\\times10^{308}'),
        ', reached at ',
        tex('e^{709.8}'),
        '). Computed literally, it overflows to infinity, and infinity divided by infinity is NaN:',
      ),
      naiveOut,
      el(
        'p',
        {},
        'The original notebook sidestepped this with 128-bit floats. Subtracting the largest score first (the right-hand form above) ',
        'changes nothing mathematically and keeps every exponent at or below zero, so nothing overflows. That is how ',
        code('softmax'),
        ' computes the weights above.',
      ),
      el('h3', { className: 'sub-title' }, 'Weights too small for a float64'),
      el(
        'p',
        {},
        'With the notebook’s scores the third weight is ',
        tex('e^{148-929}/(1+e^{-2}+\\dots) \\approx e^{-781.13}'),
        ', smaller than the smallest positive float64 (about ',
        tex('4.9\\times10^{-324}'),
        '), so it underflows to exactly 0. Working with logarithms keeps it: ',
        code('logSoftmax'),
        ' returns ',
        tex('\\log \\alpha_s = e_s - m - \\log\\sum_j e^{e_j - m}'),
        ', and from that we can still write the number down.',
      ),
      logOut,
      tinyList,
    ],
  });
  return {
    element,
    overflowHeading,
    needs: ['weights'],
    show(r) {
      const n = r.weights.length;
      map.update(row(r.weights), { colLabels: numberedLabels('h̄', n) });
      out.textContent = formatNumpy(r.weights, [n]);
      sentence.textContent = softmaxSentence(r);
      naiveOut.textContent = formatNumpy(r.naive, [n]);
      logOut.textContent = formatNumpy(r.logWeights, [n]);
      tinyList.replaceChildren(
        ...Array.from(r.weights, (w, j) =>
          el('li', {}, `α${j + 1}: float64 gives ${formatCell(w)}; from log space ${formatFromLog(r.logWeights[j])}`),
        ),
      );
      temperature.show(r.scores);
      questions.winnerShare.update(r);
    },
  };
}
