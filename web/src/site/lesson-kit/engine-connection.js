// Starts the training engine (nmt-engine.js) for a chapter: in a Web Worker
// where the page allows one, else on the main thread in one-step slices (a
// Content-Security-Policy without blob: workers). The worker is the host's
// module worker when it names one (the custom elements: it imports the page's
// own API module, so the wasm is downloaded once), else the bundled worker
// source started from a Blob URL, which also works for pages opened from file://.
// That source holds no wasm binary: the page's own data scripts' values
// (assets.nmtWorkerWasm names them) go before it, so the page downloads each once.
import { loadDataScript } from '../data-script.js';
import { createEngine } from './nmt-engine.js';
import { decodeBase64 } from './seq2seq-model.js';

/**
 * @param {{api: object, worker?: (() => Worker) | string, workerSource?: string, workerData?: Record<string, string>,
 *          init: object, onMessage: (data: object) => void, onError: (message: string) => void}} options
 *   workerData: data-script values (key → value) the worker source reads, defined before it runs
 * @returns {{send: (message: object) => void, stop: () => void, readonly onMainThread: boolean}}
 */
export function connectEngine({ api, worker: hostWorker, workerSource, workerData = {}, init, onMessage, onError }) {
  let worker;
  let engine;
  let ready = false;
  const deliver = (data) => {
    if (data.type === 'ready') ready = true;
    onMessage(data);
  };

  function onMainThread() {
    worker?.terminate();
    worker = undefined;
    engine = createEngine(async () => api, deliver, { chunk: 1 });
    engine(init);
  }

  let url;
  try {
    if (typeof hostWorker === 'function') worker = hostWorker();
    else if (hostWorker) worker = new Worker(hostWorker, { type: 'module' });
    else {
      const data = Object.entries(workerData).map(
        ([key, value]) =>
          `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(key)}] = ${JSON.stringify(value)};\n`,
      );
      url = URL.createObjectURL(new Blob([...data, workerSource], { type: 'text/javascript' }));
      worker = new Worker(url);
    }
  } catch {
    onMainThread(); // e.g. CSP without worker-src blob:
  } finally {
    if (url) URL.revokeObjectURL(url);
  }
  if (worker) {
    worker.onmessage = ({ data }) => deliver(data);
    worker.onerror = (e) => {
      if (!ready) {
        e.preventDefault();
        onMainThread();
        return;
      }
      onError(e.message); // after it started: the chapter says what stopped
    };
    worker.postMessage(init);
  }

  return {
    send: (message) => (engine ? engine(message) : worker?.postMessage(message)),
    stop() {
      engine?.({ type: 'stop' });
      worker?.terminate();
      worker = undefined;
    },
    get onMainThread() {
      return Boolean(engine);
    },
  };
}

/**
 * Loads a shipped checkpoint and, unless the host names a worker, the worker's
 * source (both data scripts, fetched when the chapter opens: not part of the
 * page's first load), then starts the engine on the checkpoint. Resolves to
 * { checkpoint (its bytes), connection }, or null if the lesson was removed
 * meanwhile; rejects if a file cannot be loaded.
 * @param {{api: object, assets: object, signal?: AbortSignal, model: 'rnn' | 'transformer',
 *          checkpoint: {key: string, urls: string[]}, input: string,
 *          onMessage: (data: object) => void, onError: (message: string) => void}} options
 */
export async function startShippedModel({ api, assets, signal, model, checkpoint, input, onMessage, onError }) {
  // The wasm binaries the worker source leaves out: key → the page's data script(s).
  const wasm = assets.nmtWorker ? [] : Object.entries(assets.nmtWorkerWasm ?? {});
  const [base64, workerSource, ...wasmValues] = await Promise.all([
    loadDataScript(checkpoint.key, checkpoint.urls),
    assets.nmtWorker ? null : loadDataScript('nmt-worker', [assets.nmtWorkerSource ?? 'nmt-worker-source.js']),
    ...wasm.map(([key, urls]) => loadDataScript(key, urls)),
  ]);
  if (signal?.aborted) return null;
  const bytes = decodeBase64(base64);
  const connection = connectEngine({
    api,
    worker: assets.nmtWorker,
    workerSource,
    workerData: Object.fromEntries(wasm.map(([key], i) => [key, wasmValues[i]])),
    init: { type: 'init', model, checkpoint: bytes, input },
    onMessage,
    onError: (message) =>
      onError(`The training stopped: its worker failed (${message}). Reload the page to start again.`),
  });
  return { checkpoint: bytes, connection };
}
