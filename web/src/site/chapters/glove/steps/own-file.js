// Loading the reader's own GloVe text file, in a worker when the host provides
// one, else on the page (streaming, with progress and Cancel). The loaded table
// outlives a render of the chapter (the reader may come back): at most one.
import { el } from '../../../dom.js';
import { bytesText, count } from './shared.js';

export const OWN_FILE_LIMIT = 50_000; // words kept from the reader's own file, plus the sentences' words

/** @type {{E: any, name: string, lines: number} | null} */
let ownTable = null;
export const loadedOwnTable = () => ownTable;

/**
 * The file picker with its progress, Cancel, and the switch back to the shipped vectors.
 * `vocabulary()`: the sentences' words (always kept); `onLoaded()` when a table is in;
 * `onToggle()` when the reader switches tables.
 */
export function ownFileControls({ api, assets, signal, vocabulary, onLoaded, onToggle }) {
  let worker = null;
  let abort = null;
  const fileInput = el('input', {
    type: 'file',
    accept: '.txt,text/plain',
    attrs: { 'aria-label': 'your GloVe text file' },
    on: { change: () => fileInput.files?.[0] && load(fileInput.files[0]) },
  });
  const progress = el('progress', { max: 1, value: 0, hidden: true, attrs: { 'aria-label': 'loading progress' } });
  const progressText = el('span', { className: 'progress-text', attrs: { 'aria-live': 'polite' } });
  const cancelButton = el('button', { type: 'button', hidden: true, on: { click: () => cancel() } }, 'Cancel');
  const switchButton = el('button', { type: 'button', hidden: !ownTable, on: { click: () => onToggle() } }, '');

  function setLoading(on) {
    progress.hidden = !on;
    cancelButton.hidden = !on;
    fileInput.disabled = on;
  }
  function showProgress(p, size) {
    const total = p.totalBytes ?? size;
    progress.value = total ? p.bytesRead / total : 0;
    progressText.textContent = `${bytesText(p.bytesRead)}${total ? ` of ${bytesText(total)}` : ''} · ${count(p.lines)} lines · ${count(p.words)} words kept`;
  }
  function finish(E, name, lines) {
    ownTable?.E.delete();
    ownTable = { E, name, lines };
    setLoading(false);
    progressText.textContent = `Loaded ${name}: ${count(E.size)} words of ${E.dim} numbers.`;
    onLoaded();
  }
  function fail(name, message) {
    setLoading(false);
    worker = null;
    abort = null;
    progressText.textContent = name === 'AbortError' ? 'Cancelled.' : `Could not load the file: ${message}`;
  }

  function load(file) {
    setLoading(true);
    showProgress({ bytesRead: 0, totalBytes: file.size, lines: 0, words: 0 }, file.size);
    const request = { type: 'load', file, vocabulary: vocabulary(), limit: OWN_FILE_LIMIT };
    try {
      // The host's worker: the elements start an ES module worker (it imports the
      // page's API module; a function, or a URL from the glove-worker-url attribute),
      // the site its classic glove-worker.js (app.js). No worker: the file is read on the page.
      const { gloveWorker } = assets;
      if (typeof gloveWorker === 'function') worker = gloveWorker();
      else if (gloveWorker) worker = new Worker(gloveWorker, { type: 'module' });
    } catch {
      worker = null; // e.g. pages opened from file:// cannot start workers
    }
    if (!worker) return loadOnPage(file, request);
    let started = false;
    worker.onmessage = (event) => {
      started = true;
      const message = event.data;
      if (message.type === 'progress') showProgress(message, file.size);
      else if (message.type === 'done') {
        worker.terminate();
        worker = null;
        try {
          finish(api.embeddingsFromBinary(message.bytes), file.name, message.lines);
        } catch (e) {
          fail(e.name, e.message);
        }
      } else if (message.type === 'error') {
        worker.terminate();
        fail(message.name, message.message);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker?.terminate();
      worker = null;
      if (!started)
        loadOnPage(file, request); // the worker script could not start
      else fail('Error', event.message || 'the loader stopped');
    };
    worker.postMessage(request);
  }

  // Fallback without a worker: the same streaming loader on the page (it yields
  // between chunks, so progress and Cancel keep working).
  function loadOnPage(file, request) {
    abort = new AbortController();
    let lines = 0;
    api
      .loadEmbeddings(file, {
        vocabulary: request.vocabulary,
        limit: request.limit,
        signal: abort.signal,
        onProgress: (p) => {
          lines = p.lines;
          showProgress(p, file.size);
        },
      })
      .then(
        (E) => {
          abort = null;
          finish(E, file.name, lines);
        },
        (e) => fail(e.name, e.message),
      );
  }

  function cancel() {
    if (worker) {
      worker.terminate();
      fail('AbortError', '');
    }
    abort?.abort();
  }

  // Removed from the page (an <attention-lesson> disconnected): end a load in flight.
  signal?.addEventListener('abort', () => {
    worker?.terminate();
    worker = null;
    abort?.abort();
  });

  return {
    nodes: [
      el(
        'label',
        {},
        'Load your own GloVe file (any release, e.g. glove.42B.300d.txt to reproduce the notebook exactly): ',
        fileInput,
      ),
      progress,
      progressText,
      cancelButton,
      switchButton,
    ],
    /** The switch's text for the table in use. */
    show(useOwn) {
      switchButton.hidden = !ownTable;
      switchButton.textContent = useOwn ? 'Use the shipped GloVe 6B vectors' : `Use ${ownTable?.name ?? 'your file'}`;
    },
  };
}
