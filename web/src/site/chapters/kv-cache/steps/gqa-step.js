// Step 5 of the KV-cache chapter: grouped-query and multi-query attention, query
// heads reading shared K/V heads, so the cache holds fewer columns per token.
import { el } from '../../../dom.js';
import { experiment, indexLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { HEAD_DIM } from '../model.js';
import { numberSelect, numpyRepr, tracedMap } from './shared.js';

const MAX_HEADS = 4;

export function gqaStep(ctx) {
  const { state, edit, figures, story, questions } = ctx;
  const heads = numberSelect('query heads', [1, 2, 4], state.heads, String, (h) =>
    edit({ heads: h, kvHeads: Math.min(h, state.kvHeads) }),
  );
  const kvHeads = numberSelect('K/V heads', [1, 2, 4], state.kvHeads, String, (g) => edit({ kvHeads: g }));
  const K = tracedMap(
    ctx,
    'kvK',
    { palette: 'green', label: 'K cache of the K/V heads' },
    'K cache: 2 columns per K/V head',
  );
  const V = tracedMap(
    ctx,
    'kvV',
    { palette: 'blue', label: 'V cache of the K/V heads' },
    'V cache: 2 columns per K/V head',
  );
  // One weights map per query head, shown for the heads in use.
  const maps = Array.from({ length: MAX_HEADS }, (_, h) => {
    const map = new Heatmap({
      palette: 'purple',
      weights: true,
      label: `query head ${h + 1}’s weights`,
      rotateColLabels: true,
      explain: story(`head${h + 1}.weights`),
    });
    figures[`head${h + 1}.weights`] = map;
    return { map, element: captioned(map, `query head ${h + 1}`) };
  });
  const out = tracedMap(
    ctx,
    'gqaOut',
    { palette: 'blue', label: 'the heads’ outputs side by side' },
    'output: every head’s 2 numbers, concatenated',
  );
  const groups = el('p', { className: 'worked' });
  const code = outputBlock('the grouped-query step as NumPy prints it');
  const element = step({
    title: '5. Grouped-query and multi-query attention',
    intro: [
      el(
        'p',
        {},
        'With several heads the cache holds a key and a value per head, per token, per layer. Shazeer (2019) let all query heads read one shared key/value head (multi-query attention); Ainslie et al. (2023) let groups of query heads share one (grouped-query attention), between the two. With ',
        tex('h'),
        ' query heads and ',
        tex('g'),
        ' K/V heads, query head ',
        tex('i'),
        ' (counting from 1) reads K/V head ',
        tex('\\lfloor (i-1)\\,g/h \\rfloor + 1'),
        '. The queries stay as many as before; only the cache shrinks, by ',
        tex('h/g'),
        '. Here each head is 2 wide and the newest token attends over the cache.',
      ),
    ],
    formula: `${symbol('head1.weights', 'a_i')} = \\operatorname{softmax}\\!\\left(\\frac{q_i\\, ${symbol('kvK', 'K_{g(i)}')}^\\top}{\\sqrt{${HEAD_DIM}}}\\right), \\qquad ${symbol('gqaOut', 'o')} = \\big[\\, a_1 ${symbol('kvV', 'V_{g(1)}')} \\;\\cdots\\; a_h V_{g(h)} \\,\\big]`,
    controls: [heads.element, kvHeads.element],
    predict: questions.cacheWidth,
    output: code,
    figures: [K.element, V.element, ...maps.map((m) => m.element), out.element],
    after: [
      groups,
      experiment({
        label: 'multi-query: one K/V head',
        explain: 'Every query head reads the same keys and values; the cache keeps 2 + 2 numbers per token.',
        apply: () => edit({ kvHeads: 1 }, { program: true }),
      }),
      experiment({
        label: 'plain multi-head: a K/V head per query head',
        explain: 'Four query heads, four K/V heads: the cache is four times as wide as with one.',
        apply: () => edit({ heads: 4, kvHeads: 4 }, { program: true }),
      }),
    ],
  });
  return {
    element,
    needs: ['gqa'],
    show(r) {
      const { gqa, labels } = r;
      const colLabels = indexLabels(gqa.kvK.cols).map(
        (c, i) => `${Math.floor(i / HEAD_DIM) + 1}.${(i % HEAD_DIM) + 1}`,
      );
      K.map.update(gqa.kvK, { rowLabels: labels, colLabels });
      V.map.update(gqa.kvV, { rowLabels: labels, colLabels });
      // Only the heads in use are in the page (no hidden figure left unexplained).
      maps.forEach(({ map, element }, h) => {
        if (h >= gqa.heads) return element.remove();
        if (!element.isConnected) out.element.before(element);
        map.update(gqa.weights[h], { rowLabels: [`q${h + 1}`], colLabels: labels });
      });
      out.map.update(gqa.output, { rowLabels: ['o'], colLabels: indexLabels(gqa.output.cols) });
      groups.textContent =
        gqa.group.map((g, h) => `query head ${h + 1} reads K/V head ${g + 1}`).join('; ') +
        `. Cached per token: ${gqa.kvK.cols} + ${gqa.kvV.cols} numbers (${gqa.heads} query heads with their own K/V would need ${2 * gqa.heads * HEAD_DIM}).`;
      code.textContent = [numpyRepr(gqa.kvK, 'K_cache = '), numpyRepr(gqa.output, 'output = ')].join('\n');
      questions.cacheWidth.update(r);
    },
    sync() {
      heads.set(state.heads);
      kvHeads.set(state.kvHeads);
    },
  };
}
