// The model the reader opened in the model chapter, for the chapters that show
// a real model's q and k (rope, qk-norm, …). The model chapter publishes what it
// has open ({ model, sentence, layer, head }) and null when it closes it; a
// chapter reads the current one and follows changes until its signal aborts.
// The model stays the model chapter's: a reader never deletes it. It runs in a
// worker (lesson-kit/model-proxy.js): config and family are data, every method
// (explainHead, run, runIds, tokenizer.encode, …) returns a promise.

let current = null;
const listeners = new Set();

/** The first `T` tokens of an explainHead answer as figure labels: spaces shown as ·, an empty one as ∅. */
export const tokenLabels = (inputs, T) =>
  Array.from({ length: T }, (_, i) => {
    const text = inputs.tokens?.[i] ?? `t${i + 1}`;
    return text.replace(/ /g, '·').replace(/\n/g, '↵').replace(/\t/g, '→') || '∅';
  });

/**
 * The first tokens the figures show (at most `most`) of a head's inputs: their count T,
 * `cut(m)` keeping a per-token matrix's first T rows, and their labels.
 */
export function firstTokens(api, inputs, most) {
  const T = Math.min(inputs.q.rows, most);
  const cut = (m) => new api.Matrix(T, m.cols, m.data.slice(0, T * m.cols));
  return { T, cut, tokens: tokenLabels(inputs, T) };
}

/** Called by the model chapter: `opened` is { model, sentence, layer, head }, or null. */
export function publishOpenedModel(opened) {
  current = opened;
  for (const listener of listeners) listener(current);
}

/** The model open now, or null. */
export const openedModel = () => current;

/** Calls `listener(opened)` on every change until `signal` aborts; returns the unsubscribe. */
export function onOpenedModel(listener, signal) {
  listeners.add(listener);
  const stop = () => listeners.delete(listener);
  signal?.addEventListener('abort', stop, { once: true });
  return stop;
}

/**
 * A chapter's view of the opened model: `empty` (text) while none is open; for
 * an open one, its head's explainHead answer handed to `show(opened, inputs)`,
 * which returns { nodes, data, draw }: the nodes to show (only the latest
 * answer's), the data `question` (predict.js) is answered from, and draw() (or a promise
 * of them: show may await the model's calls),
 * called once the nodes are on the page (figures measure their room there). The question is asked
 * before the model's numbers show, placed before the view in its step. The
 * `accepts(model)` test says whether this chapter has something to show for it.
 */
export function openedModelView({ signal, empty, accepts, show, refused, question }) {
  const element = document.createElement('div');
  element.className = 'opened-model';
  element.dataset.opened = 'none';
  const say = (text) => {
    const p = document.createElement('p');
    p.className = 'live-sentence';
    p.textContent = text;
    element.replaceChildren(p);
  };
  let asked = 0;
  /** The question shows (and hides the view until answered) only while a model's numbers do. */
  const withQuestion = (on) => {
    if (!question) return;
    element.classList.toggle('predict-concealed', on);
    if (on && !question.element.isConnected) {
      element.before(question.element);
      question.attach(element.parentElement);
    } else if (!on) question.element.remove();
  };
  function refresh(opened) {
    const ticket = ++asked;
    withQuestion(false);
    if (!opened?.model) {
      element.dataset.opened = 'none';
      return say(empty);
    }
    const { model, sentence = 'The cat sat on the mat.', layer = 0, head = 0 } = opened;
    if (!accepts(model)) {
      element.dataset.opened = 'refused';
      return say(refused(model));
    }
    element.dataset.opened = 'loading';
    say(`Reading layer ${layer + 1}, head ${head + 1} of the ${model.family} model…`);
    const failed = (error) => {
      if (ticket !== asked) return;
      withQuestion(false);
      element.dataset.opened = 'failed';
      say(`The model could not be read: ${error instanceof Error ? error.message : String(error)}`);
    };
    model
      .explainHead(sentence, { layer, head })
      .then(async (inputs) => {
        if (ticket !== asked || signal?.aborted) return;
        const shown = await show({ model, sentence, layer, head }, inputs);
        if (ticket !== asked || signal?.aborted) return;
        withQuestion(true);
        question?.update(shown.data);
        element.replaceChildren(...shown.nodes);
        shown.draw?.();
        element.dataset.opened = 'shown';
      })
      .catch(failed); // explainHead's error, or the chapter's own (a config the core refuses)
  }
  onOpenedModel(refresh, signal);
  refresh(openedModel());
  return element;
}
