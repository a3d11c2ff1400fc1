// Step 3 of the Basics chapter: the dot product of h with the one annotation h̄.
import { el } from '../../../dom.js';
import { outputBlock, step } from '../../../chapter-kit.js';
import { symbol } from '../../../math.js';
import { formatCell, formatScalar } from '../../../numpy-format.js';
import { h, hs } from './shared.js';

export function singleScoreStep({ state, questions }) {
  const out = outputBlock('score of the single annotation');
  const sum = el('p', { className: 'worked' });
  const element = step({
    title: '3. Scoring one annotation',
    intro: [
      'The simplest score is the dot product: multiply matching entries and add them up. Vectors pointing the same way score high.',
    ],
    formula: `\\operatorname{score}(${h}, ${hs}) = ${h}^\\top ${hs} = \\sum_{k=1}^{d} ${symbol('decoder', 'h_k')}\\, ${symbol('annotation', '\\bar h_{s,k}')}`,
    predict: questions.singleScoreSign,
    output: out,
    after: [sum],
  });
  return {
    element,
    needs: ['single'],
    show(r) {
      const { decoder, annotation } = state;
      // np.dot of the notebook's integer lists is an int64: 927, not 927.0.
      const integers = [...decoder, ...annotation].every(Number.isInteger);
      out.textContent = formatScalar(r.single, { integer: integers });
      sum.textContent = `${decoder.map((x, i) => `${formatCell(x)}·${formatCell(annotation[i])}`).join(' + ')} = ${formatCell(r.single)}`;
      questions.singleScoreSign.update(r);
    },
  };
}
