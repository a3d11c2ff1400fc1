// Chapter "Sliding-window attention": causal attention limited to the last W
// keys, and how far information reaches through L stacked windowed layers,
// counted with powers of the window matrix. Steps in steps/.
import { el } from '../../dom.js';
import { credit, errorLine, guarded, inputEditor, showSteps } from '../../chapter-kit.js';
import { tracedFigures } from '../../explain/trace.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
import { urlStore } from '../../url-state.js';
import { slidingStages, SCHEMA } from './model.js';
import { slidingQuestions } from './predict.js';
import { cacheStep } from './steps/cache-step.js';
import { reachStep } from './steps/reach-step.js';
import { sinksStep } from './steps/sinks-step.js';
import { windowStep } from './steps/window-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

function credits() {
  return [
    credit({
      text: 'Local windows of attention:',
      title: 'Longformer: The Long-Document Transformer',
      url: 'https://arxiv.org/abs/2004.05150',
      note: 'Iz Beltagy, Matthew E. Peters and Arman Cohan, 2020',
    }),
    credit({
      text: 'A window in every layer, information passed on layer by layer:',
      title: 'Mistral 7B',
      url: 'https://arxiv.org/abs/2310.06825',
      note: 'Jiang et al., 2023',
    }),
    credit({
      text: 'Windowed layers alternating with global ones:',
      title: 'Gemma 2: Improving Open Language Models at a Practical Size',
      url: 'https://arxiv.org/abs/2408.00118',
      note: 'Gemma Team, 2024',
    }),
    credit({
      text: 'Attention sinks, and a cache that keeps the first tokens:',
      title: 'Efficient Streaming Language Models with Attention Sinks',
      url: 'https://arxiv.org/abs/2309.17453',
      note: 'Xiao et al., 2023. The explanations here are our own; every number is computed live by the WebAssembly core',
    }),
  ];
}

export default {
  ...meta, // id, title, summary

  render(root, { api, store = urlStore, signal }) {
    const state = { ...store.readState(SCHEMA) };
    const { trace, figures, story } = tracedFigures();
    const edit = inputEditor(
      state,
      () => steps,
      () => update(),
    );
    const ctx = { state, edit, figures, story, signal, questions: slidingQuestions() };
    const steps = [windowStep(ctx), reachStep(ctx), sinksStep(ctx), cacheStep(ctx)];
    const error = errorLine();

    function update() {
      guarded(error, () => {
        const run = slidingStages(api, state, trace);
        showSteps(steps, run.r, run.failures);
        store.writeState(SCHEMA, state);
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
      ...credits(),
      el(
        'p',
        { className: 'lede' },
        'Full causal attention reads every earlier token, so its cost and its cache grow with the text. A sliding window reads only the last W tokens. Nothing before the window is lost for good, though: each layer passes on what it read, so a stack of windowed layers looks further back than any one of them.',
      ),
      ...steps.map((s) => s.element),
      error,
    );
    linkFormulas(root, figures);
    update();
  },
};
