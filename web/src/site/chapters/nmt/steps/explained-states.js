// The encoder outputs' and decoder states' explanations in the page: the GRU
// weights are asked of the engine the first time a reader opens a cell of a
// translation (nothing is sent or computed while nobody looks); until they
// arrive the figure is aria-busy and its story says so, then the cell being
// explained is told again with its arithmetic (lesson-kit/gru-states.js).
import { cellStory } from '../../../chapter-kit.js';
import { recurrentWeights, stateStories } from '../../../lesson-kit/gru-states.js';

const ASKING = 'Asking the model for its weights, to write out this state’s arithmetic…';

/**
 * @param {{send: (message: object) => void, figures: Record<string, any>,
 *          onStories: (stories: ReturnType<typeof stateStories>, translation: object) => void}} options
 *   figures: by the names gru-states.js gives sources (encoder, decoder, inputs, previous, output), filled later.
 */
export function explainedStates({ send, figures, onStories }) {
  let model = null; // { alphabet, outputAlphabet, embedding, hidden }
  let translation = null;
  let weights = null; // the engine's { steps, parameters }
  let stories = null;
  let pending = false;
  const ready = () => translation !== null && weights !== null && weights.steps === translation.steps;

  function story(kind, r, c) {
    if (!translation || !model) return null;
    if (!ready()) {
      if (!pending) send({ type: 'weights' });
      pending = true;
      figures[kind].element.setAttribute('aria-busy', 'true');
      return { text: ASKING, sources: [] };
    }
    stories ??= stateStories(translation, recurrentWeights(weights.parameters, model), model);
    return cellStory(
      figures,
      () => true,
      (row, col) => stories[kind](row, col),
    )(r, c);
  }

  /** Tells the cell a figure is explaining again (its story was waiting for the weights). */
  function retell(figure) {
    figure.element.removeAttribute('aria-busy');
    const cell = figure.activeCell;
    if (!cell) return;
    figure.activeCell = null;
    figure.explainCell(cell);
  }

  return {
    encoder: (r, c) => story('encoder', r, c),
    decoder: (r, c) => story('decoder', r, c),
    /** A new model (its 'ready' message): its alphabets and sizes. */
    setModel(next) {
      model = next;
      weights = null;
      stories = null;
    },
    setTranslation(next) {
      translation = next;
      stories = null;
    },
    /** The engine's 'weights' message. */
    setWeights(next) {
      weights = next;
      pending = false;
      if (ready()) {
        stories = stateStories(translation, recurrentWeights(weights.parameters, model), model);
        onStories(stories, translation);
      } // else the model trained on meanwhile: telling the cell again asks again
      retell(figures.encoder);
      if (!figures.decoder.element.hidden) retell(figures.decoder);
    },
  };
}
