// Step 6 of the KV-cache chapter: the cache's bytes per token in real models,
// from the shapes their config.json files state, and in the opened model.
import { el } from '../../../dom.js';
import { liveExperiment, step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import { bytesPerToken, CONFIGS, configShape } from '../configs.js';
import { thousands } from './shared.js';

const MIB = 2 ** 20;
const HEAD = [
  'model (config.json)',
  'layers',
  'query heads',
  'K/V heads',
  'head_dim',
  'dtype',
  'bytes per token',
  'at the context length',
  'with a K/V head per query head',
];

/** The table's rows: each config's bytes per token, at `context` tokens, and as plain multi-head. */
export function bytesRows(configs, context) {
  return configs.map((c) => {
    const perToken = bytesPerToken(c);
    return {
      ...c,
      perToken,
      total: perToken * context,
      multiHead: bytesPerToken({ ...c, kvHeads: c.heads }) * context,
    };
  });
}

const mib = (bytes) => `${(bytes / MIB).toFixed(1)} MiB`;
const cells = (row) =>
  [
    row.name,
    row.layers,
    row.heads,
    row.kvHeads,
    row.headDim,
    row.dtype,
    thousands(row.perToken),
    mib(row.total),
    mib(row.multiHead),
  ].map(String);

export function bytesStep(ctx) {
  const { state, edit, questions, opened } = ctx;
  const body = el('tbody');
  const table = el(
    'table',
    { className: 'scoring-table' },
    el('thead', {}, el('tr', {}, ...HEAD.map((h) => el('th', { attrs: { scope: 'col' } }, h)))),
    body,
  );
  const openedLine = el('p', { className: 'worked' });
  const longer = liveExperiment({
    label: 'a 32,768-token context',
    explain: (rows) => {
      const top = [...rows].sort((a, b) => b.total - a.total)[0];
      return `At ${thousands(state.context)} tokens ${top.name} holds ${mib(top.total)} of cache for one sequence.`;
    },
    apply: () => edit({ context: 32768 }, { program: true }),
  });
  const element = step({
    title: '6. Bytes per token in real models',
    intro: [
      el(
        'p',
        {},
        'Every layer caches one key and one value of ',
        tex('\\text{head\\_dim}'),
        ' numbers per K/V head, for every token, each number stored in the checkpoint’s dtype (2 bytes for bfloat16, 4 for float32). The shapes below are the ones these models’ config.json files state; the last column is what the same model would hold with a K/V head for every query head. The context length is the one of step 4.',
      ),
    ],
    // two lines: one is wider than a phone's column even at 70%
    formula: `\\begin{aligned}\\text{bytes per token} &= 2 \\times \\text{layers} \\times \\text{K/V heads} \\\\ &\\quad \\times \\text{head\\_dim} \\times \\text{bytes per number}\\end{aligned}`,
    predict: questions.biggestCache,
    figures: [
      el(
        'div',
        { className: 'table-scroll', tabIndex: 0, attrs: { role: 'region', 'aria-label': 'cache bytes per token' } },
        table,
      ),
    ],
    after: [openedLine, longer.element],
  });
  return {
    element,
    show() {
      const rows = bytesRows(CONFIGS, state.context);
      body.replaceChildren(
        ...rows.map((row) =>
          el(
            'tr',
            {},
            ...cells(row).map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { attrs: { scope: 'row' } } : {}, c)),
          ),
        ),
      );
      const model = opened?.current();
      const shape = configShape(model?.config);
      openedLine.textContent = shape
        ? `The model opened in the “Open a real model” chapter: ${shape.layers} layers × ${shape.kvHeads} K/V heads × head_dim ${shape.headDim}, held here in float32: ${thousands(bytesPerToken(shape))} bytes per token, ${mib(bytesPerToken(shape) * state.context)} at ${thousands(state.context)} tokens.`
        : 'Open a model in the “Open a real model” chapter to see its own cache size here.';
      questions.biggestCache.update(rows);
      longer.show(rows);
    },
  };
}
