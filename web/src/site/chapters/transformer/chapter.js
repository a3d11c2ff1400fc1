// Chapter "Attention is all you need, hands on": scaled dot-product attention,
// the 1/sqrt(d_k) scaling, padding and causal masks, multi-head attention and
// the three places a Transformer uses it. The view: it builds one piece per
// step, reads and writes the permalink state (model.js SCHEMA) and
// draws; every number comes from model.js, whose inputs are
// NumPy-exact RandomState draws (each step shows the NumPy lines).
import { afterNextPaint, errorLine, guarded } from '../../chapter-kit.js';
import { storyForFigures, Trace } from '../../explain/trace.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
import { urlStore } from '../../url-state.js';
import { workspace } from '../../workspace.js';
import * as M from './model.js';
import { attentionStep } from './steps/step-attention.js';
import { headsStep } from './steps/step-heads.js';
import { inputsStep } from './steps/step-inputs.js';
import { introduction } from './steps/introduction.js';
import { maskStep } from './steps/step-mask.js';
import { memoize } from './steps/paint.js';
import { scalingStep } from './steps/step-scaling.js';
import { scoresStep } from './steps/step-scores.js';
import { usesStep } from './steps/step-uses.js';
import { transformerQuestions } from './predict.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SAVE_PAUSE_MS = 150; // the permalink follows the edits after this pause

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    const read = M.consistent(store.readState(M.SCHEMA));
    const state = { ...read, flips: M.parseFlips(read.flips) };
    const save = () => store.writeState(M.SCHEMA, { ...state, flips: [...state.flips].join(',') });
    // The permalink is written once edits pause (SAVE_PAUSE_MS after the last):
    // history.replaceState costs 2 to 9 ms at n = 128 (bench/frame-profile.mjs),
    // a third of a seed edit inside update() and as much again before the next
    // frame in a task of its own, on every one of a burst of edits.
    let pendingSave = 0;
    const saveSoon = () => {
      clearTimeout(pendingSave);
      pendingSave = setTimeout(save, SAVE_PAUSE_MS);
    };
    // figures: by tensor name, for the readouts (the sources they outline) and the formula links.
    // trace: the forward pass as named tensors, from which every figure explains its cells.
    const trace = new Trace();
    const ctx = { state, update: () => update(), figures: {}, questions: transformerQuestions() };
    ctx.explain = storyForFigures(trace, ctx.figures);
    ctx.edit = (change) => (value) => {
      change(value);
      update();
    };
    const s1 = inputsStep(ctx);
    ctx.headsSlot = s1.headsSlot;
    const steps = [
      s1,
      scoresStep(ctx),
      scalingStep(ctx),
      attentionStep(ctx),
      maskStep(ctx),
      headsStep(ctx),
      usesStep(ctx),
    ];
    const [, s2, s3, s4, s5, s6, s7] = steps;
    const error = errorLine();
    const changed = memoize();
    const data = {};
    // Steps 1, 2, 4, 5 and 6 write into the same matrices on every edit (workspace.js).
    const slot = workspace(api);
    let cancelCheck = () => {};

    // Each part is recomputed only when its inputs changed (an edit of the
    // mask does not redo the projections, a new seed redoes everything).
    function update() {
      const t0 = performance.now();
      guarded(error, () => {
        const tokens = M.tokensOf(state);
        const n = tokens.length;
        // The labels (and the mask below) stay the same objects while their inputs do,
        // so a figure whose matrix and labels are unchanged is not repainted (paintOnce).
        changed('view', JSON.stringify(tokens), () => {
          data.view =
            n <= 24
              ? { tokens, labels: { rowLabels: tokens, colLabels: tokens }, rowsOnly: { rowLabels: tokens } }
              : { tokens, labels: { rowLabels: undefined, colLabels: undefined }, rowsOnly: { rowLabels: undefined } };
        });
        const view = data.view;
        const keyA = JSON.stringify([tokens, state.dModel, state.seed]);
        changed('A', keyA, () => {
          data.inputs = M.drawInputs(api, tokens, state.dModel, state.seed, slot);
          data.labels = n <= 24 ? tokens : null;
          data.proj = M.projections(api, data.inputs, slot, { trace, labels: data.labels });
          s1.show(data.inputs, data.proj, view);
          s2.show(data.proj, view);
          s4.show(data.proj, view);
        });
        changed('demo', `${state.demoSeed}/${state.dk}`, () =>
          M.recordDemo(api, trace, ...s3.show(M.scalingDemo(api, state.demoSeed))),
        );
        const keyMask = `${n}|${state.padding}|${state.causal}|${[...state.flips].join(',')}`;
        changed('mask', keyMask, () => (data.mask = M.buildMask(n, state)));
        const keyB = `${keyA}|${keyMask}`;
        changed('B', keyB, () => {
          const masked = M.maskedAttention(api, data.proj, data.mask, slot, { trace, labels: data.labels });
          s5.show(data.mask, masked, view, data.proj.attention.weights);
        });
        changed('C', `${keyB}|${state.heads}`, () => {
          cancelCheck();
          const [inputs, mask] = [data.inputs, data.mask];
          const byHand = M.multiHeadByHand(api, inputs, data.proj, state.heads, mask, slot, {
            trace,
            labels: data.labels,
          });
          s6.show(byHand, mask, view);
          // The one-call check draws nothing and repeats the whole of step 6
          // (projections, every head, Wo): it runs after this edit's frame is
          // painted (bench/frame.mjs times it apart, as data-check-ms).
          cancelCheck = afterNextPaint(() => {
            const t1 = performance.now();
            try {
              s6.showCheck(byHand, M.oneCallCheck(api, inputs, byHand, mask, slot));
            } catch (e) {
              s6.showCheckError(byHand, e);
            }
            root.dataset.checkMs = (performance.now() - t1).toFixed(2); // read by bench/frame.mjs
          });
        });
        changed('D', JSON.stringify([state.usesSeed, state.source, state.target]), () => {
          const uses = M.threeUses(api, state, trace);
          s7.show(uses);
        });
        saveSoon();
      });
      const ms = performance.now() - t0;
      root.dataset.updateMs = ms.toFixed(2); // read by bench/frame.mjs; not shown to readers
    }

    root.append(...introduction(), ...steps.map((s) => s.element), error);
    linkFormulas(root, ctx.figures);
    update();
  },
};
